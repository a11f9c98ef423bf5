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

  /** "not enough traffic to judge caching table bank.branch (need ...; have ...)". */
  public String message() {
    return "not enough traffic to judge " + subject + " (need " + need + "; have " + have + ")";
  }
}
