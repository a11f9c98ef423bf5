package io.wireadvisor.samples.shop;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

@Entity
@Table(name = "tag")
public class Tag {
  @Id private Long id;

  private String name;

  protected Tag() {}

  public Long getId() {
    return id;
  }

  public String getName() {
    return name;
  }
}
