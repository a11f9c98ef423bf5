package io.wireadvisor.agent.it.app;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

/**
 * Runs a few queries through whatever driver is on the class path (found by DriverManager), then
 * prints {@code RESULT <sum> ACTIVE <agent active>}. Used with a driver the agent does not support.
 */
public final class LegacyApp {
  private LegacyApp() {}

  public static void main(String[] args) throws Exception {
    long sum = 0;
    try (Connection c = DriverManager.getConnection(args[0], args[1], args[2]);
        Statement s = c.createStatement()) {
      for (int i = 1; i <= 3; i++) {
        try (ResultSet rs = s.executeQuery("SELECT " + i)) {
          rs.next();
          sum += rs.getLong(1);
        }
      }
    }
    System.out.println("RESULT " + sum + " ACTIVE " + WorkloadApp.agentActive());
  }
}
