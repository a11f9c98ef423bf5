package io.wireadvisor.agent.it.app;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

/**
 * Issue 28 under the agent: statements whose literals end in a backslash under
 * {@code NO_BACKSLASH_ESCAPES}, and statements that carry keys ({@code args[1]} is the secret
 * text). Connection 1 switches the mode with an expression (only the OK's status flag tells);
 * connection 2 has it from connect ({@code sessionVariables}). Prints {@code DONE <rows>}.
 */
public final class EscapingApp {
  private EscapingApp() {}

  public static void main(String[] args) throws Exception {
    String url = args[0];
    String secret = args[1];
    int rows = 0;
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      s.execute("SET SESSION sql_mode = CONCAT('NO_BACKSLASH', '_ESCAPES')");
      try (ResultSet rs = s.executeQuery("SELECT 'y\\', '" + secret + "1', 'z'")) {
        rows += rs.next() && rs.getString(2).equals(secret + "1") ? 1 : 0;
      }
      s.execute("SET SESSION sql_mode = DEFAULT");
      try (ResultSet rs = s.executeQuery("SELECT 'it\\'s', 'w'")) {
        rows += rs.next() && rs.getString(1).equals("it's") ? 1 : 0;
      }
      s.execute("SET @k = '" + secret + "2'");
      try (ResultSet rs = s.executeQuery("SELECT AES_ENCRYPT('card', '" + secret + "3'), AES_ENCRYPT('x', @k)")) {
        rows += rs.next() ? 1 : 0;
      }
    }
    String sep = url.contains("?") ? "&" : "?";
    try (Connection c = DriverManager.getConnection(
            url + sep + "sessionVariables=sql_mode='NO_BACKSLASH_ESCAPES'");
        Statement s = c.createStatement()) {
      try (ResultSet rs = s.executeQuery("SELECT 'v\\', '" + secret + "4'")) {
        rows += rs.next() && rs.getString(2).equals(secret + "4") ? 1 : 0;
      }
    }
    System.out.println("DONE " + rows);
  }
}
