package io.wireadvisor.advisor;

import io.wireadvisor.profile.Source;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.server.ServerView;
import java.io.UnsupportedEncodingException;
import java.net.URLDecoder;
import java.util.Collections;
import java.util.Set;
import java.util.TreeSet;

/**
 * TiDB's statement summaries of the profile's own schema. TiDB keeps STATEMENTS_SUMMARY per schema
 * and digest, and a server holds the same SQL text in many schemas: another application's, a
 * previous run's, a test suite's. Matched by text alone, their counts and plan-cache reasons stood
 * in for this traffic's (a CI run's report quoted 25,424 executions of another schema's
 * {@code commit} beside a profile of 207, and none of its own plan-cache refusals). When every
 * source of the profile names its database in the JDBC URL, only those schemas' rows are the
 * profile's; otherwise (the proxy, a URL without a database) every row is kept as before.
 */
final class SummaryScope {
  private SummaryScope() {}

  /** The view with only the profile's schemas' statement summaries, or the view unchanged. */
  static ServerView of(TrafficProfile profile, ServerView server) {
    if (server == null || server.statements().isEmpty()) {
      return server;
    }
    Set<String> schemas = schemas(profile);
    return schemas.isEmpty() ? server : server.statementsOf(schemas);
  }

  /**
   * "1 row of another schema set aside", "N rows of other schemas set aside", or "" when the view
   * set none aside: the reports' one wording of {@link ServerView#summarySetAside()}.
   */
  static String setAside(ServerView server) {
    int n = server.summarySetAside();
    return n == 0 ? "" : n == 1 ? "1 row of another schema set aside" : n + " rows of other schemas set aside";
  }

  /** The databases the profile's sources connect to; empty when any source names none. */
  static Set<String> schemas(TrafficProfile profile) {
    Set<String> schemas = new TreeSet<>();
    for (Source s : profile.sources()) {
      String db = s.jdbcUrl() == null ? null : database(s.jdbcUrl());
      if (db == null) {
        return Collections.emptySet();
      }
      schemas.add(db);
    }
    return schemas;
  }

  /**
   * The database of a Connector/J URL ({@code jdbc:mysql://h:p,h2:p/db?k=v}), decoded; null when
   * the URL names none.
   */
  static String database(String url) {
    int i = url.indexOf("//");
    if (i < 0) {
      return null;
    }
    int slash = url.indexOf('/', i + 2);
    if (slash < 0) {
      return null;
    }
    int end = url.length();
    for (char c : new char[] {'?', ';', '#'}) {
      int j = url.indexOf(c, slash + 1);
      if (j >= 0 && j < end) {
        end = j;
      }
    }
    String raw = url.substring(slash + 1, end);
    if (raw.isEmpty()) {
      return null;
    }
    try {
      String db = URLDecoder.decode(raw.replace("+", "%2B"), "UTF-8");
      return db.trim().isEmpty() ? null : db;
    } catch (IllegalArgumentException | UnsupportedEncodingException e) {
      return null;
    }
  }
}
