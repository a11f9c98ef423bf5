package io.wireadvisor.samples.spring;

import io.wireadvisor.junit.WireBudget;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.jdbc.AutoConfigureTestDatabase;
import org.springframework.boot.test.autoconfigure.orm.jpa.DataJpaTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The same {@code @DataJpaTest} with {@code @WireBudget} before and after the Spring annotation,
 * as users write them (run by {@link SpringWireBudgetIT} through the JUnit Platform, not by
 * Failsafe directly: nested classes are not discovered). Spring's test transaction is opened in
 * Spring's before-each and rolled back in its after-each; the budget must measure it either way.
 */
final class BudgetOrderSamples {
  static String url;
  static String user;
  static String password;

  private BudgetOrderSamples() {}

  static void database(DynamicPropertyRegistry r) {
    r.add("spring.datasource.url", () -> url);
    r.add("spring.datasource.username", () -> user);
    r.add("spring.datasource.password", () -> password);
    // One connection, made when the context starts: no pool thread fills the pool (setting up its
    // connections' session state) while a budget's window is open, which made the two orders
    // differ by two session probes in one run of SpringWireBudgetIT.
    r.add("spring.datasource.hikari.maximum-pool-size", () -> "1");
    r.add("spring.datasource.hikari.minimum-idle", () -> "1");
  }

  /**
   * Two SELECTs by id in the test transaction: the same work, database and test method in every
   * class below, which differ only in their class annotations (Spring finds the inherited
   * {@code @DynamicPropertySource}, JUnit the inherited {@code @Test}).
   */
  abstract static class ReadsTwoAccounts {
    @Autowired AccountRepository accounts;

    @DynamicPropertySource
    static void db(DynamicPropertyRegistry r) {
      database(r);
    }

    @Test
    void readsTwoAccounts() {
      accounts.findById(1L).orElseThrow();
      accounts.findById(2L).orElseThrow();
    }
  }

  @WireBudget(maxRoundTripsPerStatement = 1.0)
  @DataJpaTest
  @AutoConfigureTestDatabase(replace = AutoConfigureTestDatabase.Replace.NONE)
  static class BudgetBeforeSpring extends ReadsTwoAccounts {}

  @DataJpaTest
  @AutoConfigureTestDatabase(replace = AutoConfigureTestDatabase.Replace.NONE)
  @WireBudget(maxRoundTripsPerStatement = 1.0)
  static class BudgetAfterSpring extends ReadsTwoAccounts {}

  /** Control: a budget the two SELECTs and the transaction keep, in the "after" order. */
  @DataJpaTest
  @AutoConfigureTestDatabase(replace = AutoConfigureTestDatabase.Replace.NONE)
  @WireBudget(maxRoundTripsPerStatement = 6.0)
  static class GenerousBudgetAfterSpring extends ReadsTwoAccounts {}
}
