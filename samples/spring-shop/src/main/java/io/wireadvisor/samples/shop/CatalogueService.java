package io.wireadvisor.samples.shop;

import io.wireadvisor.samples.shop.Views.ProductCard;
import io.wireadvisor.samples.shop.Views.ProductDetail;
import io.wireadvisor.samples.shop.Views.ProductPage;
import io.wireadvisor.samples.shop.Views.ReviewLine;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.PageRequest;
import org.springframework.data.domain.Sort;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The catalogue: read-only listings and product pages, and the review import. Written as Spring
 * applications usually are: {@code @Transactional(readOnly = true)} on the reads, entities mapped
 * to views inside the transaction (the lazy collections load as the mapping touches them).
 */
@Service
public class CatalogueService {
  static final int PAGE_SIZE = 10;
  static final int LATEST_REVIEWS = 5;

  private final ProductRepository products;
  private final ReviewRepository reviews;

  CatalogueService(ProductRepository products, ReviewRepository reviews) {
    this.products = products;
    this.reviews = reviews;
  }

  /** A page of a category's products, by name, each with its tags. */
  @Transactional(readOnly = true)
  public ProductPage browse(long categoryId, int page) {
    Page<Product> found = products.findByCategoryId(categoryId, PageRequest.of(page, PAGE_SIZE, Sort.by("name", "id")));
    List<ProductCard> cards = found.map(CatalogueService::card).getContent();
    return new ProductPage(cards, page, found.getTotalPages(), found.getTotalElements());
  }

  /** A product page: the product, its tags, its average rating and latest reviews. */
  @Transactional(readOnly = true)
  public ProductDetail product(long id) {
    Product p = products.findById(id).orElseThrow(() -> new ShopException("no product " + id));
    List<Review> all = p.getReviews();
    double average = all.stream().mapToInt(Review::getRating).average().orElse(0);
    List<ReviewLine> latest = new ArrayList<>();
    for (Review r : all.subList(0, Math.min(LATEST_REVIEWS, all.size()))) {
      latest.add(new ReviewLine(r.getAuthor(), r.getRating(), r.getBody()));
    }
    return new ProductDetail(card(p), p.getDescription(), p.getStock(), average, all.size(), latest);
  }

  /** Imports reviews of one product (e.g. from a partner's feed) in one transaction. */
  @Transactional
  public int importReviews(long productId, List<ReviewLine> lines) {
    Product p = products.getReferenceById(productId);
    LocalDateTime now = LocalDateTime.now().truncatedTo(ChronoUnit.SECONDS);
    List<Review> batch = new ArrayList<>();
    for (ReviewLine l : lines) {
      if (l.rating() < 1 || l.rating() > 5) {
        throw new ShopException("rating must be 1 to 5, was " + l.rating());
      }
      batch.add(new Review(p, l.author(), l.rating(), l.body(), now));
    }
    return reviews.saveAll(batch).size();
  }

  static ProductCard card(Product p) {
    List<String> tags = p.getTags().stream().map(Tag::getName).sorted().toList();
    return new ProductCard(p.getId(), p.getName(), p.getPrice(), p.getCategory().getName(), tags);
  }
}
