package io.wireadvisor.e2e;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A small JDBC application in the style of an ORM-backed service, run in a forked JVM under the
 * agent: per business transaction it may validate the connection (as a pool that tests on borrow
 * does), asks the driver for the isolation level, runs a handful of long ORM-style SELECTs through
 * {@link PreparedStatement}s it closes again, writes an audit row, and every few transactions
 * inserts a batch. It prints nothing; what it did on the wire is the agent's to tell.
 *
 * <p>{@code java -javaagent:... BankLikeApp <jdbcUrl> <user> <password> <transactions> <validateOnBorrow>}
 */
public final class BankLikeApp {
  /** Distinct SELECT shapes; all longer than Connector/J's default prepStmtCacheSqlLimit (256). */
  static final String[] SELECTS = {
    select("acct", "a.id = ?"),
    select("acct", "a.branch_id = ? and a.status = ?"),
    select("acct", "a.customer_id = ? order by a.opened_at desc limit 5"),
    select("branch", "b.id = ?"),
    select("branch", "b.region = ? and b.id > ?"),
    select("rate", "r.currency = ? and r.valid_from <= ? order by r.valid_from desc limit 1"),
  };

  static final String INSERT_AUDIT =
      "insert into audit_log (account_id, action, amount, note) values (?, ?, ?, ?)";
  static final int BATCH_EVERY = 5;
  static final int BATCH_ROWS = 10;

  private BankLikeApp() {}

  static String select(String table, String where) {
    String cols;
    switch (table) {
      case "acct":
        cols = "a.id as acct_id, a.customer_id as acct_customer_id, a.branch_id as acct_branch_id,"
            + " a.balance as acct_balance, a.currency as acct_currency, a.status as acct_status,"
            + " a.opened_at as acct_opened_at, a.version as acct_version from acct a";
        break;
      case "branch":
        cols = "b.id as branch_id, b.code as branch_code, b.name as branch_name,"
            + " b.region as branch_region, b.opened_on as branch_opened_on,"
            + " b.manager as branch_manager, b.phone as branch_phone from branch b";
        break;
      default:
        cols = "r.id as rate_id, r.currency as rate_currency, r.valid_from as rate_valid_from,"
            + " r.buy as rate_buy, r.sell as rate_sell, r.mid as rate_mid,"
            + " r.source as rate_source from rate r";
    }
    return "select /* BankLikeApp */ " + cols + " where " + where;
  }

  /** Creates and fills the tables the application reads. */
  static void createSchema(Connection c) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("create table acct (id bigint primary key, customer_id bigint, branch_id int,"
          + " balance decimal(18,2), currency char(3), status varchar(8), opened_at datetime,"
          + " version int)");
      s.execute("create table branch (id int primary key, code varchar(8), name varchar(64),"
          + " region varchar(16), opened_on date, manager varchar(64), phone varchar(32))");
      s.execute("create table rate (id int primary key, currency char(3), valid_from date,"
          + " buy decimal(12,6), sell decimal(12,6), mid decimal(12,6), source varchar(16))");
      s.execute("create table audit_log (id bigint auto_increment primary key, account_id bigint,"
          + " action varchar(16), amount decimal(18,2), note varchar(128))");
      for (int i = 1; i <= 50; i++) {
        s.execute("insert into acct values (" + i + ", " + (i % 20) + ", " + (i % 5) + ", "
            + (i * 100) + ", 'EUR', 'OPEN', '2024-01-01 00:00:00', 1)");
      }
      for (int i = 0; i < 5; i++) {
        s.execute("insert into branch values (" + i + ", 'B" + i + "', 'Branch " + i + "', 'R"
            + (i % 2) + "', '2020-01-01', 'M', '123')");
      }
      s.execute("insert into rate values (1, 'EUR', '2024-01-01', 1, 1, 1, 'ecb')");
    }
  }

  public static void main(String[] args) throws Exception {
    String url = args[0];
    String user = args[1];
    String password = args[2];
    int transactions = Integer.parseInt(args[3]);
    boolean validateOnBorrow = Boolean.parseBoolean(args[4]);
    try (Connection c = DriverManager.getConnection(url, user, password)) {
      for (int t = 0; t < transactions; t++) {
        if (validateOnBorrow && !c.isValid(2)) {
          throw new IllegalStateException("connection not valid");
        }
        if (c.getTransactionIsolation() == Connection.TRANSACTION_NONE) {
          throw new IllegalStateException("no transactions");
        }
        c.setAutoCommit(false);
        for (int i = 0; i < SELECTS.length; i++) {
          try (PreparedStatement ps = c.prepareStatement(SELECTS[i])) {
            bind(ps, i, t);
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                rs.getObject(1);
              }
            }
          }
        }
        try (PreparedStatement ps = c.prepareStatement(INSERT_AUDIT)) {
          if (t % BATCH_EVERY == 0) {
            for (int r = 0; r < BATCH_ROWS; r++) {
              audit(ps, t, r);
              ps.addBatch();
            }
            ps.executeBatch();
          } else {
            audit(ps, t, 0);
            ps.executeUpdate();
          }
        }
        c.commit();
        c.setAutoCommit(true);
      }
    }
  }

  private static void bind(PreparedStatement ps, int shape, int t) throws SQLException {
    switch (shape) {
      case 0:
      case 2:
        ps.setLong(1, 1 + t % 50);
        break;
      case 1:
        ps.setInt(1, t % 5);
        ps.setString(2, "OPEN");
        break;
      case 3:
        ps.setInt(1, t % 5);
        break;
      case 4:
        ps.setString(1, "R" + (t % 2));
        ps.setInt(2, -1);
        break;
      default:
        ps.setString(1, "EUR");
        ps.setDate(2, java.sql.Date.valueOf("2025-01-01"));
    }
  }

  private static void audit(PreparedStatement ps, int t, int row) throws SQLException {
    ps.setLong(1, 1 + (t + row) % 50);
    ps.setString(2, "view");
    ps.setBigDecimal(3, java.math.BigDecimal.valueOf(row));
    ps.setString(4, "transaction " + t);
  }
}
