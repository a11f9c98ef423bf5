package io.wireadvisor.agent.internal;

/**
 * Which driver or pool call the current thread is inside, so a session-variable probe can be
 * labelled with what caused it. Two levels: the pool operation (outermost, e.g. Hikari resetting a
 * connection) and the driver method (innermost wins, e.g. {@code setAutoCommit}); combined they
 * name the cause {@code hikari.reset:setAutoCommit}. All names are pre-built constants, and the
 * per-thread state is one {@code int[2]} made once per thread, so nothing is allocated per call.
 */
public final class Causes {
  public static final int NONE = 0;

  /** Driver methods (see {@link #DRIVER}). */
  public static final int GET_TRANSACTION_ISOLATION = 1;
  public static final int IS_READ_ONLY = 2;
  public static final int SET_AUTO_COMMIT = 3;
  public static final int SET_TRANSACTION_ISOLATION = 4;
  public static final int SET_READ_ONLY = 5;
  public static final int LOAD_SERVER_VARIABLES = 6;
  public static final int CONNECT = 7;

  /** Pool operations (see {@link #POOL}). */
  public static final int HIKARI_VALIDATION = 1;
  public static final int HIKARI_RESET = 2;
  public static final int HIKARI_SETUP = 3;

  static final String APPLICATION = "application";
  static final String[] DRIVER = {
    APPLICATION,
    "getTransactionIsolation",
    "isReadOnly",
    "setAutoCommit",
    "setTransactionIsolation",
    "setReadOnly",
    "loadServerVariables",
    "connect",
  };
  static final String[] POOL = {null, "hikari.validation", "hikari.reset", "hikari.setup"};
  private static final String[][] NAMES = new String[POOL.length][DRIVER.length];

  static {
    for (int p = 0; p < POOL.length; p++) {
      for (int d = 0; d < DRIVER.length; d++) {
        NAMES[p][d] =
            p == NONE ? DRIVER[d] : d == NONE ? POOL[p] : POOL[p] + ":" + DRIVER[d];
      }
    }
  }

  private static final ThreadLocal<int[]> CURRENT =
      new ThreadLocal<int[]>() {
        @Override
        protected int[] initialValue() {
          return new int[3];
        }
      };

  private Causes() {}

  /** Enters driver method {@code cause}; returns what to pass to {@link #exitDriver}. */
  public static int enterDriver(int cause) {
    int[] c = CURRENT.get();
    int previous = c[1];
    c[1] = cause;
    return previous;
  }

  public static void exitDriver(int previous) {
    CURRENT.get()[1] = previous;
  }

  /** Enters pool operation {@code cause}; the outermost pool operation is kept. */
  public static int enterPool(int cause) {
    int[] c = CURRENT.get();
    int previous = c[0];
    if (previous == NONE) {
      c[0] = cause;
    }
    return previous;
  }

  public static void exitPool(int previous) {
    CURRENT.get()[0] = previous;
  }

  /**
   * Enters HikariCP's {@code ProxyConnection.close} (the pool taking a connection back); returns
   * what to pass to {@link #exitBorrowClose}. The third slot of the thread's state, apart from the
   * causes.
   */
  public static int enterBorrowClose() {
    int[] c = CURRENT.get();
    int previous = c[2];
    c[2] = 1;
    return previous;
  }

  public static void exitBorrowClose(int previous) {
    CURRENT.get()[2] = previous;
  }

  /**
   * True once per {@code ProxyConnection.close}: the first time the driver's connection is told
   * (its {@code clearWarnings}, HikariCP's last call on it) that the borrow ended.
   */
  public static boolean takeBorrowClose() {
    int[] c = CURRENT.get();
    if (c[2] != 1) {
      return false;
    }
    c[2] = 2;
    return true;
  }

  /** True while the thread is setting up a new connection. */
  public static boolean inConnect() {
    int d = CURRENT.get()[1];
    return d == CONNECT || d == LOAD_SERVER_VARIABLES;
  }

  /** True outside any known driver or pool call: the command is the application's own. */
  public static boolean inApplication() {
    int[] c = CURRENT.get();
    return c[0] == NONE && c[1] == NONE;
  }

  /** The current cause's name: {@code application} outside any known driver or pool call. */
  public static String current() {
    int[] c = CURRENT.get();
    return NAMES[c[0]][c[1]];
  }
}
