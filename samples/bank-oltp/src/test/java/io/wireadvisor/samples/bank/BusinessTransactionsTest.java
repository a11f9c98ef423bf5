package io.wireadvisor.samples.bank;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.samples.bank.BusinessTransactions.Plan;
import io.wireadvisor.samples.bank.BusinessTransactions.Step;
import io.wireadvisor.samples.bank.BusinessTransactions.Type;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class BusinessTransactionsTest {
  private final BusinessTransactions mix = new BusinessTransactions(StatementCatalog.build(BankSchema.load()));

  @Test
  void weightsAddUpToOneHundred() {
    int sum = 0;
    for (Type t : Type.values()) {
      sum += t.weight();
    }
    assertThat(sum).isEqualTo(100);
  }

  @Test
  void aboutNinetyPercentOfExecutedStatementsAreSelects() {
    SplittableRandom r = new SplittableRandom(42);
    long selects = 0;
    long all = 0;
    for (int i = 0; i < 20_000; i++) {
      for (Step s : mix.next(r).steps()) {
        all++;
        if (s.statement().isSelect()) {
          selects++;
        }
      }
    }
    assertThat((double) selects / all).isBetween(0.87, 0.93);
  }

  @Test
  void theMixUsesEveryStatementAndEveryTransactionType() {
    SplittableRandom r = new SplittableRandom(7);
    Set<String> used = new HashSet<>();
    Map<Type, Integer> types = new EnumMap<>(Type.class);
    for (int i = 0; i < 20_000; i++) {
      Plan p = mix.next(r);
      types.merge(p.type(), 1, Integer::sum);
      p.steps().forEach(s -> used.add(s.statement().key()));
    }
    List<String> unused = new ArrayList<>();
    mix.catalog().statements().forEach(s -> {
      if (!used.contains(s.key())) {
        unused.add(s.key());
      }
    });
    assertThat(unused).isEmpty();
    assertThat(types).hasSize(Type.values().length);
    // Weighted: balance inquiries (25%) outnumber loan repayments (5%) about five to one.
    assertThat(types.get(Type.BALANCE_INQUIRY)).isBetween(4 * types.get(Type.LOAN_REPAYMENT), 6 * types.get(Type.LOAN_REPAYMENT));
  }

  @Test
  void theSameSeedPlansTheSameTransactions() {
    SplittableRandom a = new SplittableRandom(99);
    SplittableRandom b = new SplittableRandom(99);
    for (int i = 0; i < 1000; i++) {
      assertThat(mix.next(a)).isEqualTo(mix.next(b));
    }
  }

  @Test
  void transfersBookBothLegsOnDifferentRoles() {
    Plan p = mix.plan(Type.TRANSFER, new SplittableRandom(1));
    assertThat(p.writes()).isTrue();
    List<Step> ledger = p.steps().stream().filter(s -> s.statement().key().equals("ins.ledger_entry")).toList();
    assertThat(ledger).hasSize(2);
    assertThat(ledger.get(0).role("account")).isEqualTo("account");
    assertThat(ledger.get(1).role("account")).isEqualTo("account#2");
    assertThat(mix.plan(Type.PRODUCT_CATALOGUE, new SplittableRandom(1)).writes()).isFalse();
  }
}
