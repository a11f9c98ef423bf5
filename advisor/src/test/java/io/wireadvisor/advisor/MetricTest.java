package io.wireadvisor.advisor;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.profile.TrafficProfile;
import org.junit.jupiter.api.Test;

class MetricTest {
  @Test
  void everyMetricHasAValueAndACountingMetricIsItsCountPerBusinessStatement() {
    TrafficProfile p = BankLikeProfiles.scenario(1);
    double statements = Workload.of(p).businessExecutions;
    assertThat(statements).isPositive();
    for (Metric m : Metric.values()) {
      double v = m.compute(p); // throws for a metric that neither counts nor computes
      assertThat(Double.isNaN(v) || v >= 0).as(m.name()).isTrue();
      long n = m.count(p);
      if (n >= 0) {
        assertThat(v).as(m.name()).isEqualTo(n / statements);
      }
    }
  }

  @Test
  void aCountingMetricIsNaNWithoutBusinessStatements() {
    assertThat(Metric.N_PLUS_ONE_PER_STATEMENT.compute(new TrafficProfile())).isNaN();
  }
}
