package io.wireadvisor.advisor;

import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.server.ServerView;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.List;

/**
 * Runs every rule, in a fixed order, over a traffic profile and (optionally) a server view. The
 * library entry point the CLI, the agent (at exit) and the proxy ({@code /report}) share:
 *
 * <pre>{@code
 * Analysis a = Advisor.analyze(profile, serverViewOrNull);
 * String text = Reports.text(a);
 * }</pre>
 *
 * <p>The advisor only reads; it never changes the server.
 */
public final class Advisor {
  /** The rules in the order they run (the study's path first); reports rank them by time saved. */
  public static final List<Rule> RULES =
      Collections.unmodifiableList(
          Arrays.<Rule>asList(
              new DriverUpgradeRule(),
              new TextProtocolRule(),
              new SessionProbeRule(),
              new StatementCacheRule(),
              new CloseStmtRule(),
              new PlanCacheRule(),
              new PlanCacheRefusedRule(),
              new RcReadCheckRule(),
              new TableCacheRule(),
              new BatchRewriteRule(),
              new PoolValidationRule(),
              new ServerRejectsRule(),
              new TransactionStateRule(),
              new StatementPatternRule()));

  private Advisor() {}

  /** The rule of {@link #RULES} with this id, or null. */
  static Rule rule(String id) {
    for (Rule r : RULES) {
      if (r.id().equals(id)) {
        return r;
      }
    }
    return null;
  }

  /**
   * Analyzes one (merged) profile.
   *
   * @param server the server view, or null: then no server-side (TiDB) rule fires
   */
  public static Analysis analyze(TrafficProfile profile, ServerView server) {
    server = SummaryScope.of(profile, server);
    Analysis whole = analyzeOne(profile, server);
    List<ClientGroup> groups = ClientGroup.of(profile, server);
    return groups.isEmpty() ? whole : whole.withGroups(groups);
  }

  /** The whole profile judged as one traffic (each part of {@link ClientGroup} is). */
  static Analysis analyzeOne(TrafficProfile profile, ServerView server) {
    List<Recommendation> recommendations = new ArrayList<>();
    List<Withheld> withheld = new ArrayList<>();
    for (Rule rule : RULES) {
      // Withheld also when the rule fired: what it left out below its minimums (e.g. a statement
      // TiDB's plan cache refused once, beside those refused often enough to advise on) is named.
      Rule.Judgment j = rule.judge(profile, server);
      if (j.recommendation() != null) {
        recommendations.add(j.recommendation());
      }
      withheld.addAll(j.withheld());
    }
    Estimates estimates = new Estimates(profile, server);
    List<Recommendation> ranked = estimates.ranked(recommendations);
    Outlook outlook = estimates.outlook(ranked, server);
    List<ErrorLine> errors = ErrorLine.of(profile);
    // Estimated as the rules wrote them, then told to the clients that sent the traffic.
    List<Recommendation> told = ClientSpeech.tell(ranked, profile);
    List<StatementTime> top = estimates.topStatements(server);
    return new Analysis(
        ProfileSummary.of(profile),
        server == null ? null : server.describe(),
        told,
        outlook,
        top,
        withheld,
        estimates.commandLatency(),
        errors,
        ErrorLine.total(profile),
        ErrorLine.firstScreen(profile, errors))
        .serverWindows(ServerWindows.note(profile, server, top, told));
  }

  /**
   * The first screen's estimate had only {@code applied} been applied: recommendations of {@link
   * #analyze} on this profile, e.g. the JDBC-side ones, or all but one. Each change is modelled by
   * what it removes ({@link StateModel} for session state), as for every change together.
   */
  public static Outlook outlook(
      TrafficProfile profile, ServerView server, List<Recommendation> applied) {
    return new Estimates(profile, server).outlook(applied, server);
  }

  /** Merges the profiles ({@link TrafficProfile#mergeAll}) and analyzes the result. */
  public static Analysis analyze(Collection<TrafficProfile> profiles, ServerView server) {
    return analyze(TrafficProfile.mergeAll(profiles), server);
  }
}
