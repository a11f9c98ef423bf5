package io.wireadvisor.samples.shop;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.JoinTable;
import jakarta.persistence.ManyToMany;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.OneToMany;
import jakarta.persistence.OrderBy;
import jakarta.persistence.Table;
import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A product of the catalogue. Its category is JPA's default (eager) many-to-one; its reviews
 * and tags are lazy collections, loaded when a page or a view first touches them, as most
 * applications map them.
 */
@Entity
@Table(name = "product")
public class Product {
  @Id private Long id;

  private String sku;

  private String name;

  private String description;

  private BigDecimal price;

  private int stock;

  @ManyToOne(optional = false)
  @JoinColumn(name = "category_id")
  private Category category;

  @Column(name = "created_at")
  private LocalDateTime createdAt;

  @OneToMany(mappedBy = "product")
  @OrderBy("createdAt DESC, id DESC")
  private List<Review> reviews = new ArrayList<>();

  @ManyToMany
  @JoinTable(name = "product_tag", joinColumns = @JoinColumn(name = "product_id"),
      inverseJoinColumns = @JoinColumn(name = "tag_id"))
  private Set<Tag> tags = new HashSet<>();

  protected Product() {}

  public Long getId() {
    return id;
  }

  public String getSku() {
    return sku;
  }

  public String getName() {
    return name;
  }

  public String getDescription() {
    return description;
  }

  public BigDecimal getPrice() {
    return price;
  }

  public int getStock() {
    return stock;
  }

  public Category getCategory() {
    return category;
  }

  public List<Review> getReviews() {
    return reviews;
  }

  public Set<Tag> getTags() {
    return tags;
  }
}
