package io.wireadvisor.capture;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/** One captured command of one connection, with when it was sent, how long it took and how it ended. */
public final class CaptureEvent {
  /** The {@code sql} of a SET_OPTION event that turned multi-statements on (option 0). */
  public static final String MULTI_STATEMENTS_ON = "MULTI_STATEMENTS_ON";
  /** The {@code sql} of a SET_OPTION event that turned multi-statements off (option 1). */
  public static final String MULTI_STATEMENTS_OFF = "MULTI_STATEMENTS_OFF";
  /** What the connection did. */
  public enum Kind {
    /** A connection was established (the login itself is not captured). */
    CONNECT("connect"),
    /** A text-protocol statement (COM_QUERY): its template and the literals it carried. */
    QUERY("query"),
    /** COM_STMT_PREPARE: the statement id the server gave and the SQL. */
    PREPARE("prepare"),
    /** COM_STMT_EXECUTE of a prepared statement id with its binary parameters. */
    EXECUTE("execute"),
    /** COM_STMT_RESET of a statement id. */
    RESET("reset"),
    /** COM_STMT_CLOSE of a statement id. */
    CLOSE("close"),
    /** COM_INIT_DB (a change of default schema). */
    INIT_DB("initDb"),
    /**
     * COM_SET_OPTION: {@code sql} is {@code MULTI_STATEMENTS_ON} or {@code MULTI_STATEMENTS_OFF}
     * (Connector/J turns multi-statements on around a rewritten batch of UPDATEs or DELETEs).
     */
    SET_OPTION("setOption"),
    /** COM_RESET_CONNECTION: the server dropped the session's state and prepared statements. */
    RESET_CONNECTION("resetConnection"),
    /**
     * COM_CHANGE_USER happened (the session was reset, as for RESET_CONNECTION); nothing of the
     * packet is kept: no user, no credentials, no schema.
     */
    CHANGE_USER("changeUser"),
    /** COM_QUIT, or the connection closed. */
    QUIT("quit");

    private final String jsonName;

    Kind(String jsonName) {
      this.jsonName = jsonName;
    }

    public String jsonName() {
      return jsonName;
    }

    public static Kind fromJson(String name) {
      for (Kind k : values()) {
        if (k.jsonName.equals(name)) {
          return k;
        }
      }
      return null;
    }
  }

  private final long connection;
  private final long micros;
  private final Kind kind;
  private final String sql;
  private final int statementId;
  private final List<CaptureValue> values;
  private final boolean ok;
  private final int errorCode;
  private final long latencyMicros;
  private final boolean valuesUnknown;

  private CaptureEvent(Builder b) {
    this.connection = b.connection;
    this.micros = b.micros;
    this.kind = Objects.requireNonNull(b.kind, "kind");
    this.sql = b.sql;
    this.statementId = b.statementId;
    this.values = Collections.unmodifiableList(new ArrayList<>(b.values));
    this.ok = b.ok;
    this.errorCode = b.errorCode;
    this.latencyMicros = b.latencyMicros;
    this.valuesUnknown = b.valuesUnknown;
  }

  public static Builder builder(long connection, long micros, Kind kind) {
    return new Builder(connection, micros, kind);
  }

  /** The captured connection's number (stable within one capture). */
  public long connection() {
    return connection;
  }

  /** When the command was sent, in microseconds since the capture started. */
  public long micros() {
    return micros;
  }

  public Kind kind() {
    return kind;
  }

  /**
   * The SQL: the template for QUERY (literals as {@code ?} where {@link #values()} holds them)
   * and PREPARE, the schema for INIT_DB and CONNECT (the connection's default schema when the
   * capture first saw it, if known), the option for SET_OPTION; null otherwise, or when masking could not
   * keep a statement that has literals outside parameters.
   */
  public String sql() {
    return sql;
  }

  /** The statement id for PREPARE (as the server assigned it), EXECUTE, RESET, CLOSE; else 0. */
  public int statementId() {
    return statementId;
  }

  /** Parameter values (EXECUTE) or the literals of a text statement (QUERY). */
  public List<CaptureValue> values() {
    return values;
  }

  /** True when the server answered OK (or a result), false for an ERR. */
  public boolean ok() {
    return ok;
  }

  /** The server's error code when {@link #ok()} is false, else 0. */
  public int errorCode() {
    return errorCode;
  }

  /**
   * True when the command had values the collector could not read (an execution longer than what
   * it holds of a packet, types it never saw, a credential-bearing statement): replay skips it.
   */
  public boolean valuesUnknown() {
    return valuesUnknown;
  }

  /** How long the server took to answer as the collector saw it, in microseconds; -1 unknown. */
  public long latencyMicros() {
    return latencyMicros;
  }

  /** This event with every value masked. */
  public CaptureEvent masked() {
    Builder b = toBuilder();
    b.values.clear();
    for (CaptureValue v : values) {
      b.values.add(v.mask());
    }
    return b.build();
  }

  Builder toBuilder() {
    Builder b = new Builder(connection, micros, kind);
    b.sql = sql;
    b.statementId = statementId;
    b.values.addAll(values);
    b.ok = ok;
    b.errorCode = errorCode;
    b.latencyMicros = latencyMicros;
    b.valuesUnknown = valuesUnknown;
    return b;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof CaptureEvent)) {
      return false;
    }
    CaptureEvent e = (CaptureEvent) o;
    return connection == e.connection && micros == e.micros && kind == e.kind
        && Objects.equals(sql, e.sql) && statementId == e.statementId && values.equals(e.values)
        && ok == e.ok && errorCode == e.errorCode && latencyMicros == e.latencyMicros
        && valuesUnknown == e.valuesUnknown;
  }

  @Override
  public int hashCode() {
    return Objects.hash(connection, micros, kind, sql, statementId, values, ok, errorCode);
  }

  @Override
  public String toString() {
    return "#" + connection + " @" + micros + "us " + kind.jsonName
        + (sql == null ? "" : " " + sql) + (statementId == 0 ? "" : " id=" + statementId)
        + (values.isEmpty() ? "" : " " + values) + (ok ? "" : " ERR " + errorCode);
  }

  /** Builds a {@link CaptureEvent}. */
  public static final class Builder {
    private final long connection;
    private final long micros;
    private final Kind kind;
    private String sql;
    private int statementId;
    private final List<CaptureValue> values = new ArrayList<>();
    private boolean ok = true;
    private int errorCode;
    private long latencyMicros = -1;
    private boolean valuesUnknown;

    Builder(long connection, long micros, Kind kind) {
      this.connection = connection;
      this.micros = micros;
      this.kind = kind;
    }

    public Builder sql(String sql) {
      this.sql = sql;
      return this;
    }

    public Builder statementId(int id) {
      this.statementId = id;
      return this;
    }

    public Builder value(CaptureValue v) {
      values.add(Objects.requireNonNull(v, "value"));
      return this;
    }

    Builder replaceValues(List<CaptureValue> vs) {
      values.clear();
      return values(vs);
    }

    public Builder values(List<CaptureValue> vs) {
      for (CaptureValue v : vs) {
        value(v);
      }
      return this;
    }

    /** The server answered with an ERR of {@code code}. */
    public Builder error(int code) {
      this.ok = false;
      this.errorCode = code;
      return this;
    }

    /** The command's values could not be read: none are kept, replay skips it. */
    public Builder valuesUnknown() {
      this.valuesUnknown = true;
      values.clear();
      return this;
    }

    public Builder latencyMicros(long micros) {
      this.latencyMicros = micros;
      return this;
    }

    public CaptureEvent build() {
      return new CaptureEvent(this);
    }
  }
}
