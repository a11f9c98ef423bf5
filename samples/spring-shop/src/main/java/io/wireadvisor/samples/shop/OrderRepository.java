package io.wireadvisor.samples.shop;

import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.data.jpa.repository.JpaRepository;

interface OrderRepository extends JpaRepository<PurchaseOrder, Long> {
  Page<PurchaseOrder> findByCustomerIdOrderByCreatedAtDescIdDesc(Long customerId, Pageable pageable);
}
