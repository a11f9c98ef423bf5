package io.wireadvisor.samples.spring;

import org.springframework.data.jpa.repository.JpaRepository;

interface TransferRepository extends JpaRepository<Transfer, Long> {}
