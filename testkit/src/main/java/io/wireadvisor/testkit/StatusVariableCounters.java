package io.wireadvisor.testkit;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Command counters of a MariaDB or MySQL server from {@code SHOW GLOBAL STATUS}, read over one
 * admin connection that is opened once, so that after its own login its only traffic is the
 * snapshot queries, whose effect is subtracted.
 *
 * <p>What the server counts: MariaDB's {@code sql_parse.cc} increments {@code Questions} in
 * {@code dispatch_command} before parsing, for every command whose {@code server_command_flags}
 * lack {@code CF_SKIP_QUESTIONS} (set for COM_STATISTICS, COM_PING, COM_STMT_PREPARE,
 * COM_STMT_CLOSE, COM_STMT_RESET), and a COM_QUERY again for each further statement. Checked on
 * MariaDB 11.4.5 by {@code ServerCountersIT} and by hand:
 *
 * <ul>
 *   <li>{@code Com_stmt_prepare/execute/close} count the protocol commands <em>and</em> the SQL
 *       statements {@code PREPARE}/{@code EXECUTE}/{@code DEALLOCATE PREPARE}; the latter are also
 *       counted in {@code Com_prepare_sql/Com_execute_sql/Com_dealloc_sql}, which are subtracted.
 *   <li>{@code Com_stmt_reset/send_long_data/fetch} count only the protocol commands.
 *   <li>{@code Questions} counts each statement of a COM_QUERY (a multi-statement query once per
 *       statement; a failing one, even a syntax error, once), and one per
 *       COM_STMT_EXECUTE, COM_STMT_SEND_LONG_DATA, COM_STMT_FETCH, COM_QUIT, COM_INIT_DB,
 *       COM_RESET_CONNECTION, COM_CHANGE_USER, COM_FIELD_LIST, COM_SET_OPTION (the last three
 *       from the source only). Not COM_PING, COM_STMT_PREPARE, COM_STMT_CLOSE, COM_STMT_RESET.
 * </ul>
 *
 * <p>There is no COM_QUERY counter, so it is derived:
 *
 * <pre>
 * COM_QUERY = Questions - (Com_stmt_execute - Com_execute_sql) - Com_stmt_send_long_data
 *             - Com_stmt_fetch - (snapshots taken so far, each one SHOW GLOBAL STATUS)
 * </pre>
 *
 * It therefore counts <em>statements</em> sent by COM_QUERY: exact for single-statement queries,
 * in a window without COM_QUIT (closing a connection), COM_INIT_DB,
 * COM_RESET_CONNECTION, COM_CHANGE_USER, COM_FIELD_LIST or COM_SET_OPTION, each of which adds one
 * and has no counter of its own to subtract. COM_PING, COM_RESET_CONNECTION and COM_CHANGE_USER
 * share {@code Com_admin_commands}, so none of them is reported.
 */
final class StatusVariableCounters implements ServerCounters, AutoCloseable {
  private static final Set<String> EXACT_ON_MARIADB =
      Set.of(
          Commands.COM_QUERY,
          Commands.COM_STMT_PREPARE,
          Commands.COM_STMT_EXECUTE,
          Commands.COM_STMT_CLOSE,
          Commands.COM_STMT_RESET,
          Commands.COM_STMT_SEND_LONG_DATA,
          Commands.COM_STMT_FETCH);

  /** Each adds one to MariaDB's Questions and has no counter of its own to subtract (see above). */
  private static final Set<String> IN_QUESTIONS_ON_MARIADB =
      Set.of(
          Commands.COM_QUIT,
          Commands.COM_INIT_DB,
          Commands.COM_RESET_CONNECTION,
          Commands.COM_CHANGE_USER,
          Commands.COM_FIELD_LIST,
          Commands.COM_SET_OPTION);

  private final AbstractDatabaseServer server;
  private Connection admin;
  private long snapshots;

  StatusVariableCounters(AbstractDatabaseServer server) {
    this.server = server;
  }

  /** Every numeric global status variable, read by one {@code SHOW GLOBAL STATUS}. */
  synchronized Map<String, Long> rawStatus() throws SQLException {
    if (admin == null) {
      // Plain settings; its login queries happen before the first snapshot, so never counted.
      admin = server.connect(null, null);
    } else if (admin.isClosed()) {
      // Reconnecting would put a login's queries inside somebody's window.
      throw new SQLException("the counters' admin connection to " + server + " is closed");
    }
    Map<String, Long> raw = new HashMap<>();
    try (Statement s = admin.createStatement();
        ResultSet rs = s.executeQuery("SHOW GLOBAL STATUS")) {
      while (rs.next()) {
        try {
          raw.put(rs.getString(1), Long.parseLong(rs.getString(2)));
        } catch (NumberFormatException notACounter) {
          // Text-valued status such as Ssl_cipher.
        }
      }
    }
    snapshots++;
    return raw;
  }

  /**
   * Commands without a reply (COM_STMT_CLOSE, COM_QUIT, COM_STMT_SEND_LONG_DATA) may still be in
   * flight when the caller asks: the server counts them when it gets to them, possibly after this
   * connection's SHOW. So read until two reads agree (each read's own SHOW is accounted for).
   */
  @Override
  public synchronized CounterSnapshot snapshot() throws SQLException {
    Map<String, Long> previous = read();
    long deadline = System.nanoTime() + 3_000_000_000L;
    while (System.nanoTime() < deadline) {
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
      Map<String, Long> current = read();
      if (current.equals(previous)) {
        return new CounterSnapshot(current);
      }
      previous = current;
    }
    return new CounterSnapshot(previous);
  }

  private Map<String, Long> read() throws SQLException {
    Map<String, Long> raw = rawStatus();
    long prepare = v(raw, "Com_stmt_prepare") - v(raw, "Com_prepare_sql");
    long execute = v(raw, "Com_stmt_execute") - v(raw, "Com_execute_sql");
    long close = v(raw, "Com_stmt_close") - v(raw, "Com_dealloc_sql");
    long reset = v(raw, "Com_stmt_reset");
    long longData = v(raw, "Com_stmt_send_long_data");
    long fetch = v(raw, "Com_stmt_fetch");
    // Each snapshot's own SHOW is counted in Questions before it reads them; this one included.
    long query = v(raw, "Questions") - execute - longData - fetch - snapshots;
    Map<String, Long> m = new LinkedHashMap<>();
    m.put(Commands.COM_QUERY, query);
    m.put(Commands.COM_STMT_PREPARE, prepare);
    m.put(Commands.COM_STMT_EXECUTE, execute);
    m.put(Commands.COM_STMT_CLOSE, close);
    m.put(Commands.COM_STMT_RESET, reset);
    m.put(Commands.COM_STMT_SEND_LONG_DATA, longData);
    m.put(Commands.COM_STMT_FETCH, fetch);
    return m;
  }

  private static long v(Map<String, Long> raw, String name) {
    return raw.getOrDefault(name, 0L);
  }

  /**
   * On MariaDB, the commands proven exact by {@code ServerCountersIT}. On MySQL nothing yet: its
   * {@code Questions} rules differ by version and have not been tested here.
   */
  @Override
  public Set<String> exactCommands() {
    return server.kind() == ServerKind.MARIADB ? EXACT_ON_MARIADB : Set.of();
  }

  @Override
  public Set<String> countedAsQuery() {
    return server.kind() == ServerKind.MARIADB ? IN_QUESTIONS_ON_MARIADB : Set.of();
  }

  @Override
  public synchronized void close() throws SQLException {
    if (admin != null) {
      admin.close();
      admin = null;
    }
  }
}
