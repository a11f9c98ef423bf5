package io.wireadvisor.report;

import io.wireadvisor.advisor.Analysis;
import io.wireadvisor.advisor.Change;
import io.wireadvisor.advisor.JdbcUrlSettings;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Every change of an analysis together, ready to copy: complete JDBC URLs, HikariCP
 * {@code dataSource.*} lines, Spring Boot {@code spring.datasource.hikari.*} lines, and the SQL
 * for the DBA. No credentials: the URLs come from the profile, which never holds any.
 */
final class CopyReady {
  /** Put in a URL when the collector did not record the application's (a proxy's profile). */
  static final String PLACEHOLDER_URL = "jdbc:mysql://HOST:PORT/DATABASE";

  final List<String> urls = new ArrayList<>();
  final List<String> hikari = new ArrayList<>();
  final List<String> spring = new ArrayList<>();
  /** {@code hibernate.*} lines for hibernate.properties / persistence.xml (outside Spring Boot). */
  final List<String> hibernate = new ArrayList<>();
  final List<String> sql;
  final List<String> notes = new ArrayList<>();
  /** Per client (other than JDBC ones), what to do in its own terms: label to lines. */
  final Map<String, List<String>> clients;
  final boolean urlKnown;

  private CopyReady(Analysis a) {
    Change c = a.combinedChange();
    List<String> known = a.outlook() == null ? Collections.<String>emptyList() : a.outlook().jdbcUrls();
    urlKnown = !known.isEmpty();
    if (!c.jdbcProperties().isEmpty()) {
      for (String u : urlKnown ? known : Collections.singletonList(PLACEHOLDER_URL)) {
        urls.add(JdbcUrlSettings.merge(u, c.jdbcProperties()));
      }
      if (!urlKnown) {
        notes.add("The collector did not record the application's URL (a proxy sees no JDBC URL):"
            + " put these parameters on yours, next to the ones it already has.");
      } else {
        notes.add("The URL as the application used it, with the driver settings the agent read that"
            + " differ from Connector/J's defaults and the changes; the agent records no other"
            + " parameter (user, password, allowPublicKeyRetrieval, ...): add those your URL has.");
      }
    }
    for (Map.Entry<String, String> e : c.jdbcProperties().entrySet()) {
      hikari.add("dataSource." + e.getKey() + "=" + e.getValue());
      spring.add("spring.datasource.hikari.data-source-properties." + e.getKey() + "=" + e.getValue());
    }
    for (Map.Entry<String, String> e : c.poolSettings().entrySet()) {
      hikari.add(e.getKey() + "=" + e.getValue());
      spring.add("spring.datasource.hikari." + kebab(e.getKey()) + "=" + e.getValue());
    }
    for (Map.Entry<String, String> e : c.hibernateProperties().entrySet()) {
      hibernate.add(e.getKey() + "=" + e.getValue());
      spring.add("spring.jpa.properties." + e.getKey() + "=" + e.getValue());
    }
    sql = c.sql();
    notes.addAll(c.notes());
    clients = c.clients();
  }

  static CopyReady of(Analysis a) {
    return new CopyReady(a);
  }

  boolean isEmpty() {
    return urls.isEmpty() && hikari.isEmpty() && hibernate.isEmpty() && sql.isEmpty()
        && clients.isEmpty();
  }

  /** {@code maximumPoolSize} → {@code maximum-pool-size}: Spring Boot's relaxed binding form. */
  static String kebab(String camel) {
    StringBuilder b = new StringBuilder(camel.length() + 4);
    for (int i = 0; i < camel.length(); i++) {
      char ch = camel.charAt(i);
      if (Character.isUpperCase(ch)) {
        if (i > 0) {
          b.append('-');
        }
        b.append(Character.toLowerCase(ch));
      } else {
        b.append(ch);
      }
    }
    return b.toString();
  }
}
