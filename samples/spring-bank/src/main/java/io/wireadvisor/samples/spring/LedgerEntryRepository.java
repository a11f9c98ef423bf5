package io.wireadvisor.samples.spring;

import java.util.List;
import org.springframework.data.domain.Limit;
import org.springframework.data.jpa.repository.JpaRepository;

interface LedgerEntryRepository extends JpaRepository<LedgerEntry, Long> {
  List<LedgerEntry> findByAccountIdOrderByPostedAtDescIdDesc(Long accountId, Limit limit);
}
