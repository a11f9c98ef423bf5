package io.wireadvisor.agent.it.app;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * What a capture must hold, through the real driver: server-side prepared statements with binary
 * values, client-side ones (literals inlined into COM_QUERY), a text statement with literals, an
 * error, and account management (never captured). Args: JDBC URL (without properties), user,
 * password ("-" for none). Prints {@code DONE}.
 */
public final class CaptureApp {
  private CaptureApp() {}

  public static void main(String[] args) throws Exception {
    String password = "-".equals(args[2]) ? "" : args[2];
    try (Connection c = DriverManager.getConnection(args[0] + "?useServerPrepStmts=true&cachePrepStmts=true", args[1], password)) {
      try (PreparedStatement ps = c.prepareStatement("SELECT ? + 1")) {
        for (int i = 40; i < 43; i++) {
          ps.setInt(1, i);
          try (ResultSet rs = ps.executeQuery()) {
            rs.next();
          }
        }
      }
      try (Statement s = c.createStatement()) {
        s.executeQuery("SELECT 'ann' AS owner, 1234 AS id").close();
        try {
          s.executeQuery("SELECT nope FROM no_such_table_for_capture");
        } catch (SQLException expected) {
          // captured with its error code
        }
        try {
          s.execute("SET PASSWORD FOR 'nobody_here'@'%' = PASSWORD('CaptureSecret-77')");
        } catch (SQLException expected) {
          // refused or not: it must not reach the capture either way
        }
      }
    }
    try (Connection c = DriverManager.getConnection(args[0] + "?useServerPrepStmts=false", args[1], password);
        PreparedStatement ps = c.prepareStatement("SELECT ? AS name, ? AS n")) {
      ps.setString(1, "bob");
      ps.setInt(2, 7);
      ps.executeQuery().close();
    }
    System.out.println("DONE");
  }
}
