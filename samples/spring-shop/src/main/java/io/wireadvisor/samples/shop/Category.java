package io.wireadvisor.samples.shop;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

@Entity
@Table(name = "category")
public class Category {
  @Id private Long id;

  private String name;

  protected Category() {}

  public Long getId() {
    return id;
  }

  public String getName() {
    return name;
  }
}
