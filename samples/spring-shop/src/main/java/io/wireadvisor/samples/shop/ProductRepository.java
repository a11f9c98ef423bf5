package io.wireadvisor.samples.shop;

import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;

interface ProductRepository extends JpaRepository<Product, Long> {
  /** A page of a category's products (Spring Data adds the count query a {@link Page} needs). */
  Page<Product> findByCategoryId(Long categoryId, Pageable pageable);

  /** Takes {@code quantity} out of stock unless there is not enough; the rows changed (0 or 1). */
  @Modifying
  @Query("update Product p set p.stock = p.stock - :quantity where p.id = :id and p.stock >= :quantity")
  int takeFromStock(@Param("id") Long id, @Param("quantity") int quantity);
}
