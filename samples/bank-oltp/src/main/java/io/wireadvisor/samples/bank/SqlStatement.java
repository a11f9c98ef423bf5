package io.wireadvisor.samples.bank;

import java.util.List;

/**
 * One distinct SQL statement of the application, as its ORM would send it.
 *
 * @param key stable name, e.g. {@code ref.currency.byId}
 * @param sql the text with {@code ?} placeholders
 * @param kind SELECT, INSERT or UPDATE
 * @param params what each placeholder stands for, in order
 */
public record SqlStatement(String key, String sql, Kind kind, List<Param> params) {
  /** The statement kinds the workload uses. */
  public enum Kind {
    SELECT,
    INSERT,
    UPDATE
  }

  /**
   * What a placeholder is bound to.
   *
   * @param table the table whose column the value is compared with or written to
   * @param column that column
   * @param role when not null, the value is the id of the entity playing this role in the
   *     business transaction ({@code account}, {@code account#2}, ...), so that the statements of one
   *     transaction talk about the same account; when null, a fresh value like the column's data
   */
  public record Param(String table, String column, String role) {}

  public SqlStatement {
    params = List.copyOf(params);
  }

  public boolean isSelect() {
    return kind == Kind.SELECT;
  }

  public int length() {
    return sql.length();
  }
}
