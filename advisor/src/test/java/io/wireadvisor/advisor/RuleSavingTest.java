package io.wireadvisor.advisor;

import static org.assertj.core.api.Assertions.assertThat;

import io.wireadvisor.profile.TrafficProfile;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Each rule prices its own recommendations ({@link Rule#saving}); Estimates finds the rule by id. */
class RuleSavingTest {
  @Test
  void everyRuleIsFoundByItsOwnId() {
    Set<String> ids = new HashSet<>();
    for (Rule rule : Advisor.RULES) {
      assertThat(ids.add(rule.id())).as("one rule per id: " + rule.id()).isTrue();
      assertThat(Advisor.rule(rule.id())).isSameAs(rule);
    }
    assertThat(Advisor.rule("no-such-rule")).isNull();
  }

  @Test
  void aRuleThatRemovesRoundTripsPricesThemAndOneWithoutAnEstimateIsServerSide() {
    TrafficProfile text = BankLikeProfiles.scenario(1);
    Estimates estimates = new Estimates(text);
    Recommendation textProtocol = Advisor.analyze(text, null).recommendation(TextProtocolRule.ID);
    Recommendation priced = estimates.withSaving(textProtocol);
    assertThat(priced.saving().roundTripsBefore()).isPositive();
    assertThat(priced.saving().assumption()).isEqualTo(new TextProtocolRule().saving(textProtocol, estimates).assumption());

    Recommendation unknown = Recommendation.builder("no-such-rule", "t", Severity.LOW).build();
    assertThat(estimates.withSaving(unknown).saving().assumption()).startsWith("a server-side change");
    assertThat(estimates.withSaving(unknown).saving().secondsSaved()).isZero();
  }
}
