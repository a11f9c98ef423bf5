package io.wireadvisor.agent.it.app;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;

/** Ten prepared SELECTs and exit: args are JDBC URL, user, password ("-" for none). */
public final class TinyApp {
  private TinyApp() {}

  public static void main(String[] args) throws Exception {
    try (Connection c = DriverManager.getConnection(args[0], args[1], "-".equals(args[2]) ? "" : args[2]);
        PreparedStatement ps = c.prepareStatement("SELECT ? + 1")) {
      for (int i = 0; i < 10; i++) {
        ps.setInt(1, i);
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
        }
      }
    }
    System.out.println("tiny app done");
  }
}
