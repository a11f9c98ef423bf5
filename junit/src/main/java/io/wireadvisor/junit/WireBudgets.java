package io.wireadvisor.junit;

import io.wireadvisor.profile.JdbcProperty;
import io.wireadvisor.advisor.Advisor;
import io.wireadvisor.advisor.Analysis;
import io.wireadvisor.advisor.DriverUpgradeRule;
import io.wireadvisor.advisor.JdbcSettings;
import io.wireadvisor.advisor.Outlook;
import io.wireadvisor.advisor.Recommendation;
import io.wireadvisor.profile.ProfileFormatException;
import io.wireadvisor.profile.ProbeStats;
import io.wireadvisor.profile.ProfileJson;
import io.wireadvisor.profile.ShapeStats;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.profile.Via;
import io.wireadvisor.sql.ProbeKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The checks behind {@link WireBudget}, and the programmatic form:
 *
 * <pre>{@code
 * WireBudgets.reset();
 * repository.findOpenAccounts(customer);
 * assertThat(WireBudgets.analysis().outlook().roundTripsPerStatementNow()).isLessThanOrEqualTo(1.1);
 * }</pre>
 */
public final class WireBudgets {
  private WireBudgets() {}

  /** Starts a fresh agent window. */
  public static void reset() {
    AgentBridge.reset();
  }

  /** The traffic since the last reset, as the agent recorded it. */
  public static TrafficProfile profile() throws ProfileFormatException {
    return ProfileJson.fromJson(AgentBridge.profileJson());
  }

  /** The advisor's analysis of the traffic since the last reset. */
  public static Analysis analysis() throws ProfileFormatException {
    return Advisor.analyze(profile(), null);
  }

  /** The broken limits of {@code budget} in {@code profile}, one line each; empty when within. */
  static List<String> check(TrafficProfile profile, WireBudget budget) {
    List<String> broken = new ArrayList<>();
    Analysis a = Advisor.analyze(profile, null);
    Outlook o = a.outlook();
    if (o == null || o.businessStatements() < budget.minStatements()) {
      return broken;
    }
    double perStatement = o.roundTripsPerStatementNow();
    if (budget.maxRoundTripsPerStatement() >= 0 && perStatement > budget.maxRoundTripsPerStatement()) {
      broken.add(String.format(Locale.ROOT,
          "%.2f wire round trips per business statement (%d statements, commands %s); budget %.2f%s",
          perStatement, o.businessStatements(), o.commandsNow(), budget.maxRoundTripsPerStatement(),
          hints(o, DriverUpgradeRule.statementCacheBlocker(profile), profile)));
    }
    long probes = 0;
    java.util.Set<ProbeKind> kinds = new java.util.TreeSet<>();
    for (java.util.Map.Entry<ProbeKind, ProbeStats> e : profile.probes().entrySet()) {
      if (!CONNECT_TIME.contains(e.getKey())) {
        probes += e.getValue().count();
        kinds.add(e.getKey());
      }
    }
    if (budget.maxSessionProbes() >= 0 && probes > budget.maxSessionProbes()) {
      broken.add(probes + " session-variable probes " + kinds + "; budget " + budget.maxSessionProbes()
          + ". " + probeAdvice(kinds, JdbcSettings.of(profile)));
    }
    long prepares = 0;
    long executes = 0;
    for (ShapeStats s : profile.shapes().values()) {
      prepares += s.count(Via.PREPARES);
      executes += s.count(Via.EXECUTES);
    }
    if (budget.noPreparePerExecution() && executes > 0 && prepares * 2 > executes && prepares > 1) {
      String blocker = DriverUpgradeRule.statementCacheBlocker(profile);
      broken.add(prepares + " COM_STMT_PREPARE for " + executes
          + " COM_STMT_EXECUTE: statements are prepared again for each execution. "
          + (blocker != null
              ? "Not cachePrepStmts=true yet: " + blocker
              : "Set cachePrepStmts=true (and prepStmtCacheSize to the statements a connection uses)"));
    }
    if (budget.noStatementAboveCacheLimit()) {
      long limit = JdbcSettings.of(profile).minLong(JdbcProperty.PREP_STMT_CACHE_SQL_LIMIT);
      for (ShapeStats s : profile.shapes().values()) {
        if (s.probe() == null && !s.isOverflow() && s.maxSqlLength() >= limit && s.executions() > 0) {
          broken.add("a " + s.maxSqlLength() + "-character statement is never cached"
              + " (prepStmtCacheSqlLimit=" + limit + "; raise it above " + s.maxSqlLength() + "): "
              + abbreviate(s.digestText()));
        }
      }
    }
    if (budget.failOnAdvice()) {
      for (Recommendation r : a.recommendations()) {
        if (r.severity().compareTo(budget.failOnSeverity()) <= 0) {
          broken.add("advice of severity " + r.severity() + ": " + r.title() + " (" + r.id() + ")");
        }
      }
    }
    return broken;
  }

  /**
   * Probes a connection sends while it is set up (the driver's variables read, SET NAMES,
   * session SETs): a pool pays them once per connection, not per statement, so budgets do not
   * count them.
   */
  static final java.util.Set<ProbeKind> CONNECT_TIME = java.util.EnumSet.of(
      ProbeKind.VARIABLES_READ, ProbeKind.SESSION_SET, ProbeKind.SET_NAMES, ProbeKind.SHOW_VARIABLES);

  /** What to change for the round trips the commands show, in words. */
  private static String hints(Outlook o, String cacheBlocker, TrafficProfile profile) {
    StringBuilder b = new StringBuilder();
    java.util.Map<String, Long> c = o.commandsNow();
    if (c.containsKey("COM_STMT_RESET") || cacheBlocker != null) {
      // The statement cache of Connector/J 8.0.x-8.2.0 adds a RESET per statement (DriverUpgradeRule).
      b.append(cacheBlocker != null
          ? " " + cacheBlocker + "."
          : " COM_STMT_RESET per statement: Connector/J 8.0.x to 8.2.0 with cachePrepStmts=true"
              + " sends one before each reuse; upgrade it.");
      return "." + b;
    }
    if (c.containsKey("probes")) {
      java.util.Set<ProbeKind> kinds = new java.util.TreeSet<>();
      for (ProbeKind k : profile.probes().keySet()) {
        if (!CONNECT_TIME.contains(k)) {
          kinds.add(k);
        }
      }
      b.append(" Session probes ").append(kinds).append(": ").append(probeAdvice(kinds, JdbcSettings.of(profile)))
          .append('.');
    }
    if (c.containsKey("COM_STMT_CLOSE") || c.containsKey("COM_STMT_PREPARE")) {
      b.append(" PREPARE/CLOSE around executions: cachePrepStmts=true.");
    }
    if (!c.containsKey("COM_STMT_EXECUTE") && c.containsKey("COM_QUERY")) {
      b.append(" Text protocol: useServerPrepStmts=true with cachePrepStmts=true (TiDB's plan cache serves prepared statements only).");
    }
    return b.length() == 0 ? "" : "." + b;
  }

  /**
   * What removes these probes, naming only settings not already in effect for every source the
   * agent recorded (a setting in effect is said to be, never suggested again).
   */
  static String probeAdvice(java.util.Set<ProbeKind> kinds, JdbcSettings settings) {
    List<String> change = new ArrayList<>();
    List<String> inEffect = new ArrayList<>();
    boolean localState = settings.isTrue(JdbcProperty.USE_LOCAL_SESSION_STATE);
    boolean reads = kinds.contains(ProbeKind.ISOLATION_READ) || kinds.contains(ProbeKind.READ_ONLY_READ);
    boolean sets = kinds.contains(ProbeKind.AUTOCOMMIT_SET) || kinds.contains(ProbeKind.ISOLATION_SET)
        || kinds.contains(ProbeKind.READ_ONLY_SET);
    if (reads || sets) {
      if (localState) {
        inEffect.add(settings.usesMaxPerformance() ? "useConfigs=maxPerformance" : "useLocalSessionState=true");
      } else {
        change.add("useLocalSessionState=true (or useConfigs=maxPerformance) so the driver answers isolation,"
            + " read-only and autocommit from its own state and skips SETs that change nothing");
      }
    }
    if (kinds.contains(ProbeKind.READ_ONLY_SET)) {
      if (settings.isFalse(JdbcProperty.READ_ONLY_PROPAGATES_TO_SERVER)) {
        inEffect.add("readOnlyPropagatesToServer=false");
      } else {
        change.add("readOnlyPropagatesToServer=false so setReadOnly (@Transactional(readOnly = true)) stays in"
            + " the driver");
      }
    }
    if (kinds.contains(ProbeKind.AUTOCOMMIT_SET)) {
      change.add("the pool's autoCommit=false with Hibernate's"
          + " hibernate.connection.provider_disables_autocommit=true (Spring Boot:"
          + " spring.datasource.hikari.auto-commit=false,"
          + " spring.jpa.properties.hibernate.connection.provider_disables_autocommit=true) so each"
          + " transaction stops switching autocommit off and on");
    }
    if (kinds.contains(ProbeKind.VALIDATION_QUERY)) {
      change.add("no connectionTestQuery in the pool, so it checks connections with isValid() (a ping)");
    }
    StringBuilder b = new StringBuilder();
    if (!inEffect.isEmpty()) {
      b.append("Already in effect: ").append(String.join(", ", inEffect)).append("; these probes are");
      b.append(sets ? " changes of state the application, its framework or pool asks for" : " not answered by it");
      b.append(change.isEmpty() ? " (the advisor's lines below say what sends them)" : "");
    }
    if (!change.isEmpty()) {
      b.append(b.length() == 0 ? "Set " : ". Set ").append(String.join("; and ", change));
    }
    return b.toString();
  }

  private static String abbreviate(String s) {
    return s.length() <= 160 ? s : s.substring(0, 157) + "...";
  }
}
