package io.wireadvisor.samples.bank;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.samples.bank.BusinessTransactions.Step;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class WorkloadBindingTest {
  private final StatementCatalog catalog = StatementCatalog.build(BankSchema.load());
  // Binding needs no server; only pool() does.
  private final Workload workload = new Workload(null, new BusinessTransactions(catalog));
  private final SplittableRandom r = new SplittableRandom(3);
  private final Map<String, Long> roles = new HashMap<>();

  private Object[] bind(Step step) {
    SqlStatement st = step.statement();
    Object[] v = new Object[st.params().size()];
    for (int i = 0; i < v.length; i++) {
      v[i] = workload.bind(st.params().get(i), step, roles, r, 0.5);
    }
    return v;
  }

  @Test
  void statementsOfOneTransactionTalkAboutTheSameAccount() {
    Object account = bind(new Step(catalog.get("w.account.byId"), Map.of()))[0];
    Object[] debit = bind(new Step(catalog.get("upd.accountDebit"), Map.of()));
    Object[] credit = bind(new Step(catalog.get("upd.accountCredit"), Map.of()));
    assertThat(debit[debit.length - 1]).isEqualTo(account);
    assertThat(credit[credit.length - 1]).isNotNull().isEqualTo(roles.get("account#2"));
    assertThat((Long) account).isBetween(1L, BankSchema.load().table("account").rows(0.5));
    assertThat(debit[0]).isInstanceOf(BigDecimal.class);
  }

  @Test
  void aCodeParameterIsTheCodeOfTheRowInItsRole() {
    Object id = bind(new Step(catalog.get("ref.currency.byId"), Map.of()))[0];
    Object code = bind(new Step(catalog.get("ref.currency.byCode"), Map.of()))[0];
    assertThat(code).isEqualTo(Values.code("currency", (Long) id));
  }

  @Test
  void comparedValuesAreNeverNull() {
    for (int i = 0; i < 200; i++) {
      Object[] v = bind(new Step(catalog.get("ref.holiday.listValid"), Map.of()));
      assertThat(v).doesNotContainNull();
    }
  }
}
