package io.wireadvisor.samples.shop;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;
import java.time.LocalDateTime;

/**
 * A customer's review of a product. The id is JPA's default {@code @GeneratedValue} (AUTO): on
 * Hibernate 6 a sequence, which the MySQL dialect emulates with the table {@code review_seq},
 * so that inserts can be batched (an IDENTITY id would not allow it).
 */
@Entity
@Table(name = "review")
public class Review {
  @Id @GeneratedValue private Long id;

  @ManyToOne(fetch = FetchType.LAZY, optional = false)
  @JoinColumn(name = "product_id")
  private Product product;

  private String author;

  private int rating;

  private String body;

  @Column(name = "created_at")
  private LocalDateTime createdAt;

  protected Review() {}

  Review(Product product, String author, int rating, String body, LocalDateTime createdAt) {
    this.product = product;
    this.author = author;
    this.rating = rating;
    this.body = body;
    this.createdAt = createdAt;
  }

  public Long getId() {
    return id;
  }

  public String getAuthor() {
    return author;
  }

  public int getRating() {
    return rating;
  }

  public String getBody() {
    return body;
  }

  public LocalDateTime getCreatedAt() {
    return createdAt;
  }
}
