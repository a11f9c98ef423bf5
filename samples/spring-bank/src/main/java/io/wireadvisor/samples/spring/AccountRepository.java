package io.wireadvisor.samples.spring;

import jakarta.persistence.LockModeType;
import java.util.Collection;
import java.util.List;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Lock;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;

interface AccountRepository extends JpaRepository<Account, Long> {
  List<Account> findByCustomerIdOrderByIdAsc(Long customerId);

  /**
   * The accounts, locked for update in id order: two transfers between the same accounts in
   * opposite directions then wait for each other instead of deadlocking.
   */
  @Lock(LockModeType.PESSIMISTIC_WRITE)
  @Query("select a from Account a where a.id in :ids order by a.id")
  List<Account> lockInIdOrder(@Param("ids") Collection<Long> ids);
}
