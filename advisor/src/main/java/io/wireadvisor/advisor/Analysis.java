package io.wireadvisor.advisor;

import io.wireadvisor.profile.Histogram;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The result of {@link Advisor#analyze}: a profile summary, the recommendations (ranked by the
 * time they are estimated to save, then by severity), the first screen's {@link Outlook}, the
 * statements ranked by time, the judgments withheld for lack of evidence, and the latency
 * distribution per wire command.
 */
public final class Analysis {
  private final ProfileSummary profile;
  private final String server;
  private final List<Recommendation> recommendations;
  private final Outlook outlook;
  private final List<StatementTime> topStatements;
  private final List<Withheld> withheld;
  private final Map<String, Histogram> commandLatency;
  private final List<ErrorLine> errors;
  private final long errorTotal;
  private final boolean errorsOnFirstScreen;
  /** Set once by {@link Advisor#analyze} on the instance it builds; see {@link #serverWindows()}. */
  private String serverWindows;
  private List<ClientGroup> groups = Collections.emptyList();

  public Analysis(ProfileSummary profile, String server, List<Recommendation> recommendations) {
    this(
        profile,
        server,
        recommendations,
        null,
        Collections.<StatementTime>emptyList(),
        Collections.<Withheld>emptyList(),
        Collections.<String, Histogram>emptyMap());
  }

  public Analysis(
      ProfileSummary profile,
      String server,
      List<Recommendation> recommendations,
      Outlook outlook,
      List<StatementTime> topStatements,
      List<Withheld> withheld,
      Map<String, Histogram> commandLatency) {
    this(profile, server, recommendations, outlook, topStatements, withheld, commandLatency,
        Collections.<ErrorLine>emptyList(), 0, false);
  }

  /**
   * @param errors ERR replies by shape and code, most time first ({@link ErrorLine#MAX_LINES})
   * @param errorTotal ERR replies of every shape
   * @param errorsOnFirstScreen whether they are frequent or costly enough for the first screen
   */
  public Analysis(
      ProfileSummary profile,
      String server,
      List<Recommendation> recommendations,
      Outlook outlook,
      List<StatementTime> topStatements,
      List<Withheld> withheld,
      Map<String, Histogram> commandLatency,
      List<ErrorLine> errors,
      long errorTotal,
      boolean errorsOnFirstScreen) {
    this.errors = Collections.unmodifiableList(new ArrayList<>(errors));
    this.errorTotal = errorTotal;
    this.errorsOnFirstScreen = errorsOnFirstScreen;
    this.profile = profile;
    this.server = server;
    this.recommendations = Collections.unmodifiableList(new ArrayList<>(recommendations));
    this.outlook = outlook;
    this.topStatements = Collections.unmodifiableList(new ArrayList<>(topStatements));
    this.withheld = Collections.unmodifiableList(new ArrayList<>(withheld));
    this.commandLatency = Collections.unmodifiableMap(new LinkedHashMap<>(commandLatency));
  }

  /**
   * The note on the two windows where server-side STATEMENTS_SUMMARY figures stand beside the
   * profile's counts ({@link ServerWindows}), or null when none are shown.
   */
  public String serverWindows() {
    return serverWindows;
  }

  Analysis serverWindows(String note) {
    this.serverWindows = note;
    return this;
  }

  /** This analysis with the profile's traffic judged per client too ({@link ClientGroup#of}). */
  Analysis withGroups(List<ClientGroup> groups) {
    Analysis a =
        new Analysis(profile, server, recommendations, outlook, topStatements, withheld,
            commandLatency, errors, errorTotal, errorsOnFirstScreen);
    a.serverWindows = serverWindows;
    a.groups = Collections.unmodifiableList(new ArrayList<>(groups));
    return a;
  }

  /**
   * The traffic of each client judged apart, when it came from more than one client kind and the
   * profile tells them apart; empty otherwise. Reports group recommendations by these.
   */
  public List<ClientGroup> groups() {
    return groups;
  }

  public ProfileSummary profile() {
    return profile;
  }

  /** One line describing the inspected server, or null when none was given. */
  public String server() {
    return server;
  }

  /** The recommendations, most time saved first (then by severity). */
  public List<Recommendation> recommendations() {
    return recommendations;
  }

  /** The first screen's answer; null only for an analysis built without one. */
  public Outlook outlook() {
    return outlook;
  }

  /** Statement shapes by time spent, most first (at most the report's top N). */
  public List<StatementTime> topStatements() {
    return topStatements;
  }

  /** Judgments withheld for lack of traffic, with what each needs. */
  public List<Withheld> withheld() {
    return withheld;
  }

  /** ERR replies by statement shape and server error code, most time first, then most frequent. */
  public List<ErrorLine> errors() {
    return errors;
  }

  /** ERR replies of every statement in the profile. */
  public long errorTotal() {
    return errorTotal;
  }

  /** True when the errors are frequent or costly enough to stand on the first screen. */
  public boolean errorsOnFirstScreen() {
    return errorsOnFirstScreen;
  }

  /** Latency distribution per wire command name ({@code COM_QUERY}, ...), probes included. */
  public Map<String, Histogram> commandLatency() {
    return commandLatency;
  }

  /**
   * Every recommendation's change together: JDBC properties (a later recommendation's value for
   * the same property wins), pool settings, SQL and notes, in recommendation order.
   */
  public Change combinedChange() {
    Change.Builder b = Change.builder();
    for (Recommendation r : recommendations) {
      Change c = r.change();
      for (Map.Entry<String, String> e : c.jdbcProperties().entrySet()) {
        b.jdbc(e.getKey(), e.getValue());
      }
      for (Map.Entry<String, String> e : c.poolSettings().entrySet()) {
        b.pool(e.getKey(), e.getValue());
      }
      for (Map.Entry<String, String> e : c.hibernateProperties().entrySet()) {
        b.hibernate(e.getKey(), e.getValue());
      }
      for (String s : c.sql()) {
        b.sql(s);
      }
      for (String n : c.notes()) {
        b.note(n);
      }
      for (Map.Entry<String, List<String>> e : c.clients().entrySet()) {
        for (String line : e.getValue()) {
          b.client(e.getKey(), line);
        }
      }
    }
    return b.build();
  }

  /** The recommendation of a rule, or null when it did not fire. */
  public Recommendation recommendation(String ruleId) {
    for (Recommendation r : recommendations) {
      if (r.id().equals(ruleId)) {
        return r;
      }
    }
    return null;
  }

  /** Ids of the rules that fired, in order. */
  public List<String> ids() {
    List<String> ids = new ArrayList<>();
    for (Recommendation r : recommendations) {
      ids.add(r.id());
    }
    return ids;
  }

  /** True when there is nothing to do. */
  public boolean isEmpty() {
    return recommendations.isEmpty();
  }
}
