package io.wireadvisor.advisor;

/**
 * A rule that could have advised but did not have enough evidence: "not enough traffic to judge
 * X (need ...)". Reports list these instead of advising.
 */
public final class Withheld {
  private final String ruleId;
  private final String subject;
  private final String need;
  private final String have;
  /** Null for "not enough traffic"; else why the rule withholds a setting it would advise. */
  private final String because;

  /**
   * @param ruleId the rule, e.g. {@code table-cache}
   * @param subject what could not be judged, e.g. "caching table bank.branch"
   * @param need the minimum the rule needs, e.g. "a window of at least 5 minutes and 1,000 reads"
   * @param have what the profile had, e.g. "0.2 minutes, 40 reads"
   */
  public Withheld(String ruleId, String subject, String need, String have) {
    this.ruleId = ruleId;
    this.subject = subject;
    this.need = need;
    this.have = have;
    this.because = null;
  }

  private Withheld(String ruleId, String subject, String need, String have, String because) {
    this.ruleId = ruleId;
    this.subject = subject;
    this.need = need;
    this.have = have;
    this.because = because;
  }

  /**
   * A setting the rule would advise but withholds for a reason other than too little traffic (the
   * application's driver, hot rows): "withheld
   * useServerPrepStmts=true: Connector/J 8.0.33 … (need Connector/J 8.3.0 or later; have 8.0.33)".
   */
  public static Withheld because(String ruleId, String subject, String because, String need, String have) {
    return new Withheld(ruleId, subject, need, have, because);
  }

  /** Why the setting is withheld, or null when the traffic was too little to judge. */
  public String because() {
    return because;
  }

  public String ruleId() {
    return ruleId;
  }

  public String subject() {
    return subject;
  }

  public String need() {
    return need;
  }

  public String have() {
    return have;
  }

  /**
   * "not enough traffic to judge caching table bank.branch (need ...; have ...)", or for a driver
   * "withheld useServerPrepStmts=true: because (need ...; have ...)".
   */
  public String message() {
    if (because != null) {
      return "withheld " + subject + ": " + because + " (need " + need + "; have " + have + ")";
    }
    return "not enough traffic to judge " + subject + " (need " + need + "; have " + have + ")";
  }
}
