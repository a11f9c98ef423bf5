package io.wireadvisor.testkit;

import java.util.List;

/**
 * MySQL client/server command names, as used by {@link CounterSnapshot} and by every collector in
 * the project. Names follow MySQL's {@code enum_server_command}.
 *
 * @see <a href="https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_command_phase.html">
 *     MySQL command phase</a>
 */
public final class Commands {
  public static final String COM_QUERY = "COM_QUERY";
  public static final String COM_STMT_PREPARE = "COM_STMT_PREPARE";
  public static final String COM_STMT_EXECUTE = "COM_STMT_EXECUTE";
  public static final String COM_STMT_CLOSE = "COM_STMT_CLOSE";
  public static final String COM_STMT_RESET = "COM_STMT_RESET";
  public static final String COM_STMT_SEND_LONG_DATA = "COM_STMT_SEND_LONG_DATA";
  public static final String COM_STMT_FETCH = "COM_STMT_FETCH";
  public static final String COM_PING = "COM_PING";
  public static final String COM_INIT_DB = "COM_INIT_DB";
  public static final String COM_QUIT = "COM_QUIT";
  public static final String COM_SET_OPTION = "COM_SET_OPTION";
  public static final String COM_RESET_CONNECTION = "COM_RESET_CONNECTION";
  public static final String COM_CHANGE_USER = "COM_CHANGE_USER";
  public static final String COM_FIELD_LIST = "COM_FIELD_LIST";

  /** Every command name above, in protocol-byte order of importance for this project. */
  public static final List<String> ALL =
      List.of(
          COM_QUERY,
          COM_STMT_PREPARE,
          COM_STMT_EXECUTE,
          COM_STMT_CLOSE,
          COM_STMT_RESET,
          COM_STMT_SEND_LONG_DATA,
          COM_STMT_FETCH,
          COM_PING,
          COM_INIT_DB,
          COM_QUIT,
          COM_SET_OPTION,
          COM_RESET_CONNECTION,
          COM_CHANGE_USER,
          COM_FIELD_LIST);

  private Commands() {}
}
