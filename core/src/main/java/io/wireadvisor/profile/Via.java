package io.wireadvisor.profile;

/**
 * How a statement shape reached the server. Each constant is one counter of a {@link ShapeStats};
 * its {@link #jsonName()} is the key in the profile JSON.
 */
public enum Via {
  /** COM_QUERY carrying this statement (text protocol). */
  TEXT_EXECUTES("textExecutes"),
  /** COM_STMT_PREPARE of this statement. */
  PREPARES("prepares"),
  /** COM_STMT_EXECUTE of a statement id prepared from this text. */
  EXECUTES("executes"),
  /** COM_STMT_CLOSE of such a statement id. */
  CLOSES("closes"),
  /** COM_STMT_RESET of such a statement id. */
  RESETS("resets"),
  /** COM_STMT_SEND_LONG_DATA for such a statement id. */
  SEND_LONG_DATA("sendLongData"),
  /** COM_STMT_FETCH (cursor) for such a statement id. */
  FETCHES("fetches"),
  /** {@code executeBatch()} calls of this statement (agent only: batches are a JDBC notion). */
  BATCHES("batches"),
  /** Statements added to those batches ({@code addBatch()} calls). */
  BATCHED_STATEMENTS("batchedStatements"),
  /** Commands for this shape the server answered with an ERR packet. */
  ERRORS("errors"),
  /**
   * Executions that succeeded outside any transaction: the reply's status had autocommit on and no
   * transaction open (a statement under autocommit, its own server transaction). With a pool's
   * {@code autoCommit=false} these run in a transaction nobody commits, which HikariCP rolls back
   * when the connection is returned.
   */
  OUTSIDE_TRANSACTION("outsideTransaction");

  private final String jsonName;

  Via(String jsonName) {
    this.jsonName = jsonName;
  }

  public String jsonName() {
    return jsonName;
  }

  public static Via fromJsonName(String name) {
    for (Via via : values()) {
      if (via.jsonName.equals(name)) {
        return via;
      }
    }
    return null;
  }
}
