package io.wireadvisor.profile;

/**
 * The commands a MySQL-protocol client sends, by the first byte of the command packet.
 *
 * <p>The JSON name of each constant is its MySQL name ({@code COM_QUERY}), the same name the test
 * harness uses for server counters, so a profile and a server snapshot compare key by key.
 *
 * @see <a href="https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_command_phase.html">
 *     MySQL command phase</a>
 */
public enum CommandType {
  SLEEP(0x00),
  QUIT(0x01),
  INIT_DB(0x02),
  QUERY(0x03),
  FIELD_LIST(0x04),
  CREATE_DB(0x05),
  DROP_DB(0x06),
  REFRESH(0x07),
  SHUTDOWN(0x08),
  STATISTICS(0x09),
  PROCESS_INFO(0x0a),
  CONNECT(0x0b),
  PROCESS_KILL(0x0c),
  DEBUG(0x0d),
  PING(0x0e),
  TIME(0x0f),
  DELAYED_INSERT(0x10),
  CHANGE_USER(0x11),
  BINLOG_DUMP(0x12),
  TABLE_DUMP(0x13),
  CONNECT_OUT(0x14),
  REGISTER_SLAVE(0x15),
  STMT_PREPARE(0x16),
  STMT_EXECUTE(0x17),
  STMT_SEND_LONG_DATA(0x18),
  STMT_CLOSE(0x19),
  STMT_RESET(0x1a),
  SET_OPTION(0x1b),
  STMT_FETCH(0x1c),
  DAEMON(0x1d),
  BINLOG_DUMP_GTID(0x1e),
  RESET_CONNECTION(0x1f),
  /** A command byte this enum does not know; counted, never dropped. */
  UNKNOWN(-1);

  private static final CommandType[] BY_CODE = new CommandType[256];

  static {
    for (CommandType type : values()) {
      if (type.code >= 0) {
        BY_CODE[type.code] = type;
      }
    }
  }

  private final int code;
  private final String wireName;

  CommandType(int code) {
    this.code = code;
    this.wireName = "COM_" + name();
  }

  /** The command byte, or -1 for {@link #UNKNOWN}. */
  public int code() {
    return code;
  }

  /** MySQL's name, e.g. {@code COM_STMT_EXECUTE}; used in JSON and metrics. */
  public String wireName() {
    return wireName;
  }

  /** The type of a command byte; never null (unknown bytes give {@link #UNKNOWN}). */
  /**
   * Whether the command carries a statement id at payload bytes 1-4 (COM_STMT_EXECUTE, FETCH,
   * RESET, SEND_LONG_DATA, CLOSE).
   */
  public boolean carriesStatementId() {
    switch (this) {
      case STMT_EXECUTE:
      case STMT_FETCH:
      case STMT_RESET:
      case STMT_SEND_LONG_DATA:
      case STMT_CLOSE:
        return true;
      default:
        return false;
    }
  }

  public static CommandType fromCode(int commandByte) {
    CommandType type = BY_CODE[commandByte & 0xff];
    return type == null ? UNKNOWN : type;
  }

  /** The type with this MySQL name ({@code COM_QUERY}), or null. */
  public static CommandType fromWireName(String wireName) {
    if (wireName == null || !wireName.startsWith("COM_")) {
      return null;
    }
    try {
      return valueOf(wireName.substring(4));
    } catch (IllegalArgumentException e) {
      return null;
    }
  }
}
