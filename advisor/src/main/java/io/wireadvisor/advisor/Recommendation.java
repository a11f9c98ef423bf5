package io.wireadvisor.advisor;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/** One change the advisor recommends, with the evidence, the exact change, its risk and how to verify it. */
public final class Recommendation {
  private final String id;
  private final String title;
  private final Severity severity;
  private final List<String> evidence;
  private final Change change;
  private final String expectedEffect;
  private final String risk;
  private final String verify;
  private final List<Expectation> expectations;
  private final Saving saving;

  private Recommendation(Builder b) {
    this.id = Objects.requireNonNull(b.id, "id");
    this.title = Objects.requireNonNull(b.title, "title");
    this.severity = Objects.requireNonNull(b.severity, "severity");
    this.evidence = Collections.unmodifiableList(new ArrayList<>(b.evidence));
    this.change = b.change == null ? Change.builder().build() : b.change;
    this.expectedEffect = b.expectedEffect == null ? "" : b.expectedEffect;
    this.risk = b.risk == null ? "" : b.risk;
    this.verify = b.verify == null ? "" : b.verify;
    this.expectations = Collections.unmodifiableList(new ArrayList<>(b.expectations));
    this.saving = b.saving;
  }

  public static Builder builder(String id, String title, Severity severity) {
    return new Builder(id, title, severity);
  }

  /** The rule's id, e.g. {@code prepared-statements}. */
  public String id() {
    return id;
  }

  public String title() {
    return title;
  }

  public Severity severity() {
    return severity;
  }

  /** What in the profile (and server) made the rule fire, with numbers. */
  public List<String> evidence() {
    return evidence;
  }

  public Change change() {
    return change;
  }

  public String expectedEffect() {
    return expectedEffect;
  }

  public String risk() {
    return risk;
  }

  /** How to check afterwards that the change took effect. */
  public String verify() {
    return verify;
  }

  /** Machine-checkable effects, used by {@code diff}. */
  public List<Expectation> expectations() {
    return expectations;
  }

  /** The estimated saving in round trips and time, or null when the rule cannot estimate one. */
  public Saving saving() {
    return saving;
  }

  /** This recommendation with {@code saving} set. */
  public Recommendation withSaving(Saving saving) {
    Builder b = new Builder(id, title, severity);
    b.evidence.addAll(evidence);
    b.change = change;
    b.expectedEffect = expectedEffect;
    b.risk = risk;
    b.verify = verify;
    b.expectations.addAll(expectations);
    b.saving = saving;
    return b.build();
  }

  /** This recommendation told in other words (same id, severity, expectations and saving). */
  Recommendation retold(
      String title, List<String> evidence, Change change, String expectedEffect, String risk,
      String verify) {
    Builder b = new Builder(id, title, severity);
    b.evidence.addAll(evidence);
    b.change = change;
    b.expectedEffect = expectedEffect;
    b.risk = risk;
    b.verify = verify;
    b.expectations.addAll(expectations);
    b.saving = saving;
    return b.build();
  }

  @Override
  public String toString() {
    return id + " (" + severity + "): " + title;
  }

  /** Builds a {@link Recommendation}. */
  public static final class Builder {
    private final String id;
    private final String title;
    private final Severity severity;
    private final List<String> evidence = new ArrayList<>();
    private Change change;
    private String expectedEffect;
    private String risk;
    private String verify;
    private final List<Expectation> expectations = new ArrayList<>();
    private Saving saving;

    Builder(String id, String title, Severity severity) {
      this.id = id;
      this.title = title;
      this.severity = severity;
    }

    public Builder evidence(String line) {
      evidence.add(line);
      return this;
    }

    public Builder change(Change change) {
      this.change = change;
      return this;
    }

    public Builder expectedEffect(String text) {
      this.expectedEffect = text;
      return this;
    }

    public Builder risk(String text) {
      this.risk = text;
      return this;
    }

    public Builder verify(String text) {
      this.verify = text;
      return this;
    }

    public Builder expect(Expectation e) {
      expectations.add(e);
      return this;
    }

    public Builder saving(Saving saving) {
      this.saving = saving;
      return this;
    }

    public Recommendation build() {
      return new Recommendation(this);
    }
  }
}
