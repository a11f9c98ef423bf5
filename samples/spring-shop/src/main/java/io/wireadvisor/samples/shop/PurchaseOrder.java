package io.wireadvisor.samples.shop;

import jakarta.persistence.CascadeType;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.OneToMany;
import jakarta.persistence.OrderBy;
import jakarta.persistence.Table;
import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;

/** An order (AUTO_INCREMENT id, as MySQL schemas have it) with its lines, saved by cascade. */
@Entity
@Table(name = "purchase_order")
public class PurchaseOrder {
  @Id
  @GeneratedValue(strategy = GenerationType.IDENTITY)
  private Long id;

  @ManyToOne(fetch = FetchType.LAZY, optional = false)
  @JoinColumn(name = "customer_id")
  private Customer customer;

  private String status;

  private BigDecimal total = BigDecimal.ZERO;

  @Column(name = "created_at")
  private LocalDateTime createdAt;

  @OneToMany(mappedBy = "order", cascade = CascadeType.ALL)
  @OrderBy("id")
  private List<OrderLine> lines = new ArrayList<>();

  protected PurchaseOrder() {}

  PurchaseOrder(Customer customer, LocalDateTime createdAt) {
    this.customer = customer;
    this.status = "PLACED";
    this.createdAt = createdAt;
  }

  void add(Product product, int quantity) {
    lines.add(new OrderLine(this, product, quantity, product.getPrice()));
    total = total.add(product.getPrice().multiply(BigDecimal.valueOf(quantity)));
  }

  public Long getId() {
    return id;
  }

  public String getStatus() {
    return status;
  }

  public BigDecimal getTotal() {
    return total;
  }

  public LocalDateTime getCreatedAt() {
    return createdAt;
  }

  public List<OrderLine> getLines() {
    return lines;
  }
}
