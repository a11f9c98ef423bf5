package io.wireadvisor.advisor;

import java.util.Collection;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Keeps credentials out of everything the advisor prints: reports, error messages, logs.
 *
 * <p>Profiles are already written without passwords ({@code Source.isSecret}); this is the second
 * line of defence, applied when a report or a message is produced, with a wider net: any name that
 * contains {@code password}, {@code pwd}, {@code secret}, {@code token} or {@code key}.
 */
public final class Redaction {
  /** What a hidden value is replaced with. */
  public static final String MASK = "****";

  private static final String[] SECRET_WORDS = {"password", "pwd", "secret", "token", "key"};

  /**
   * {@code //user:password@} in a URL; greedy up to the last {@code @} before white space, so a
   * password holding {@code @}, {@code /}, {@code ?} or {@code #} is masked whole (the user-info
   * may hold any of them as the user wrote it; better to mask a host than show a password).
   */
  private static final Pattern USER_INFO = Pattern.compile("(//[^/:@\\s]*:)\\S*@");

  /** {@code name=value} where the name looks secret (JDBC URL parameters, key=value lists). */
  private static final Pattern SECRET_PARAMETER =
      Pattern.compile(
          "(?i)([A-Za-z0-9_.\\-]*(?:password|pwd|secret|token|key)[A-Za-z0-9_.\\-]*\\s*=\\s*)"
              + "[^&)\\s]*");

  private Redaction() {}

  /** True when a property or parameter of this name may hold a credential. */
  public static boolean isSecretName(String name) {
    if (name == null) {
      return false;
    }
    String n = name.toLowerCase(Locale.ROOT);
    for (String w : SECRET_WORDS) {
      if (n.contains(w)) {
        return true;
      }
    }
    return false;
  }

  /** A copy without the entries whose name {@linkplain #isSecretName looks secret}. */
  public static Map<String, String> withoutSecrets(Map<String, String> properties) {
    Map<String, String> out = new TreeMap<>();
    for (Map.Entry<String, String> e : properties.entrySet()) {
      if (!isSecretName(e.getKey())) {
        out.put(e.getKey(), e.getValue());
      }
    }
    return out;
  }

  /**
   * {@code text} with every known secret value, the password of any {@code //user:password@} and
   * the value of any secret-looking {@code name=value} replaced by {@link #MASK}.
   */
  public static String text(String text, Collection<String> secrets) {
    if (text == null) {
      return null;
    }
    String out = text;
    if (secrets != null) {
      for (String s : secrets) {
        if (s != null && !s.isEmpty()) {
          out = out.replace(s, MASK);
        }
      }
    }
    out = USER_INFO.matcher(out).replaceAll("$1" + MASK + "@");
    return SECRET_PARAMETER.matcher(out).replaceAll("$1" + MASK);
  }
}
