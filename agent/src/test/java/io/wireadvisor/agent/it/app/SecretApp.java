package io.wireadvisor.agent.it.app;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;

/**
 * Connects with credentials inside the URL only ({@code args[0]}), runs {@code args[1]} distinct
 * long statements ({@code SELECT i} with a comment of {@code args[2]} bytes) and a prepared one,
 * then prints {@code DONE <sum>}.
 */
public final class SecretApp {
  private SecretApp() {}

  public static void main(String[] args) throws Exception {
    int n = Integer.parseInt(args[1]);
    int padding = Integer.parseInt(args[2]);
    StringBuilder pad = new StringBuilder(padding);
    while (pad.length() < padding) {
      pad.append("padding ");
    }
    long sum = 0;
    try (Connection c = DriverManager.getConnection(args[0]);
        Statement s = c.createStatement()) {
      for (int i = 1; i <= n; i++) {
        try (ResultSet rs = s.executeQuery("SELECT " + i + " /* " + i + " " + pad + " */")) {
          rs.next();
          sum += rs.getLong(1);
        }
      }
      try (PreparedStatement ps = c.prepareStatement("SELECT ? + 0")) {
        ps.setInt(1, 1);
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          sum += rs.getLong(1);
        }
      }
    }
    System.out.println("DONE " + sum);
  }
}
