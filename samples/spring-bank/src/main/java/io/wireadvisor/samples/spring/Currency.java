package io.wireadvisor.samples.spring;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.LocalDate;
import java.time.LocalDateTime;
import org.hibernate.annotations.Immutable;

/** A currency: reference data, read with every account (the bank schema's {@code currency}). */
@Entity
@Immutable
@Table(name = "currency")
public class Currency {
  @Id private Integer id;
  private String code;
  private String name;

  @Column(name = "iso_numeric")
  private int isoNumeric;

  @Column(name = "minor_units")
  private int minorUnits;

  private String symbol;
  private int status;

  @Column(name = "valid_from")
  private LocalDate validFrom;

  @Column(name = "valid_to")
  private LocalDate validTo;

  @Column(name = "created_at")
  private LocalDateTime createdAt;

  @Column(name = "updated_at")
  private LocalDateTime updatedAt;

  private int version;

  protected Currency() {}

  public Integer getId() {
    return id;
  }

  public String getCode() {
    return code;
  }

  public int getMinorUnits() {
    return minorUnits;
  }
}
