package io.wireadvisor.samples.shop;

import java.math.BigDecimal;
import java.util.List;

/** What the services return: plain values, built inside the transaction. */
final class Views {
  private Views() {}

  record ProductCard(long id, String name, BigDecimal price, String category, List<String> tags) {}

  record ProductPage(List<ProductCard> products, int page, int totalPages, long totalProducts) {}

  record ReviewLine(String author, int rating, String body) {}

  record ProductDetail(ProductCard card, String description, int stock, double averageRating,
      int reviewCount, List<ReviewLine> latestReviews) {}

  record OrderLineView(String product, int quantity, BigDecimal unitPrice) {}

  record OrderView(long id, BigDecimal total, List<OrderLineView> lines) {}

  record OrderHistory(List<OrderView> orders, long totalOrders) {}

  record Item(long productId, int quantity) {}
}
