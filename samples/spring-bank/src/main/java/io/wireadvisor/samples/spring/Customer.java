package io.wireadvisor.samples.spring;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Version;
import java.time.LocalDate;
import java.time.LocalDateTime;

/** A bank customer (the bank schema's {@code customer}). */
@Entity
@Table(name = "customer")
public class Customer {
  @Id
  @GeneratedValue(strategy = GenerationType.IDENTITY)
  private Long id;

  @Column(name = "customer_number")
  private String customerNumber;

  @Column(name = "first_name")
  private String firstName;

  @Column(name = "last_name")
  private String lastName;

  @Column(name = "birth_date")
  private LocalDate birthDate;

  private String email;
  private String phone;

  @Column(name = "branch_id")
  private int branchId;

  @Column(name = "customer_segment_id")
  private int customerSegmentId;

  @Column(name = "risk_rating_id")
  private int riskRatingId;

  @Column(name = "occupation_id")
  private int occupationId;

  @Column(name = "language_id")
  private int languageId;

  @Column(name = "country_id")
  private int countryId;

  @Column(name = "kyc_document_type_id")
  private int kycDocumentTypeId;

  private int status;

  @Column(name = "last_login_at")
  private LocalDateTime lastLoginAt;

  @Column(name = "created_at")
  private LocalDateTime createdAt;

  @Column(name = "updated_at")
  private LocalDateTime updatedAt;

  @Version private int version;

  protected Customer() {}

  public Long getId() {
    return id;
  }

  public String getCustomerNumber() {
    return customerNumber;
  }

  public String getFirstName() {
    return firstName;
  }

  public String getLastName() {
    return lastName;
  }
}
