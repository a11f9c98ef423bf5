package io.wireadvisor.samples.bank;

import io.wireadvisor.profile.ProfileJson;
import io.wireadvisor.profile.TrafficProfile;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import net.bytebuddy.agent.ByteBuddyAgent;

/**
 * The wire-advisor agent in this JVM, reached through its in-process API: started with
 * {@code -javaagent}, or found and attached here at run time.
 *
 * <p>The agent's own classes (its advisor copy relocated) are loaded by the system class loader, not
 * by this sample's loader, so {@code io.wireadvisor.agent.AgentApi} is called by reflection and
 * speaks Strings only: its profile is JSON, read back with this sample's {@link ProfileJson}.
 *
 * <p>Where the agent jar comes from, first match wins: {@code --agent-jar}, the system property
 * {@value #JAR_PROPERTY}, the copy packaged inside {@code bank-oltp.jar} ({@value #RESOURCE},
 * extracted to a temporary file), {@code agent/target/wire-advisor-agent.jar} under the working
 * directory or next to this sample's build directory in the source tree.
 */
public final class AgentProfiles implements WireProfileSource {
  static final String API = "io.wireadvisor.agent.AgentApi";
  static final String JAR_PROPERTY = "wireadvisor.agent.jar";
  static final String RESOURCE = "agent/wire-advisor-agent.jar";
  static final String BUILT = "agent/target/wire-advisor-agent.jar";

  private final Method reset;
  private final Method profileJson;
  private final String description;

  private AgentProfiles(Class<?> api, String description) throws NoSuchMethodException {
    this.reset = api.getMethod("reset");
    this.profileJson = api.getMethod("profileJson");
    this.description = description;
  }

  /**
   * The running agent, attaching it first if it is not active yet.
   *
   * @param explicitJar {@code --agent-jar}, or null to search
   * @throws AgentUnavailableException naming the places searched, or why attaching failed
   */
  public static AgentProfiles attach(Path explicitJar, Consumer<String> log) throws AgentUnavailableException {
    Class<?> api = presentApi();
    if (api != null) {
      // Started with -javaagent (or attached before): a second agent would only be ignored.
      return create(requireActive(api, "the agent already in this JVM"), "wire-advisor agent (-javaagent or already attached)");
    }
    Path jar = locate(explicitJar);
    try {
      // quiet: the sample prints its own reports; the agent's at-exit report would repeat them.
      ByteBuddyAgent.attach(jar.toFile(), String.valueOf(ProcessHandle.current().pid()), "quiet=true");
    } catch (RuntimeException | LinkageError e) {
      throw new AgentUnavailableException("cannot attach the agent " + jar + " to this JVM: " + e, e);
    }
    api = presentApi();
    if (api == null) {
      throw new AgentUnavailableException("attached " + jar + " but it has no " + API + " (is it the wire-advisor agent jar?)", null);
    }
    log.accept("wire-advisor agent attached in-process from " + jar);
    return create(requireActive(api, jar.toString()), "wire-advisor agent (attached in-process)");
  }

  /**
   * The agent activates once it has hooked Connector/J's protocol class, which happens when that
   * class loads (or, attached later, when it is retransformed): load it now, so that "not active"
   * means the hooks really failed (the agent says why on stderr), not that no connection was made yet.
   */
  private static Class<?> requireActive(Class<?> api, String what) throws AgentUnavailableException {
    try {
      Class.forName("com.mysql.cj.protocol.a.NativeProtocol", true, AgentProfiles.class.getClassLoader());
    } catch (ClassNotFoundException | LinkageError e) {
      throw new AgentUnavailableException("Connector/J is not on this sample's class path: " + e, e);
    }
    if (!isActive(api)) {
      throw new AgentUnavailableException(
          what + " did not hook Connector/J (" + API + ".isActive() is false; its warning on stderr says why)", null);
    }
    return api;
  }

  private static AgentProfiles create(Class<?> api, String description) throws AgentUnavailableException {
    try {
      return new AgentProfiles(api, description);
    } catch (NoSuchMethodException e) {
      throw new AgentUnavailableException(API + " lacks " + e.getMessage() + ": an agent of another version?", e);
    }
  }

  /** Throws, naming what was searched, unless an agent is in this JVM or its jar can be found. */
  public static void check(Path explicitJar) throws AgentUnavailableException {
    if (presentApi() == null) {
      locate(explicitJar);
    }
  }

  /** {@code AgentApi} when an agent's jar is on the system class path (-javaagent, or attached), else null. */
  static Class<?> presentApi() {
    try {
      return Class.forName(API, false, ClassLoader.getSystemClassLoader());
    } catch (ClassNotFoundException | LinkageError e) {
      return null;
    }
  }

  private static boolean isActive(Class<?> api) {
    try {
      return Boolean.TRUE.equals(api.getMethod("isActive").invoke(null));
    } catch (ReflectiveOperationException | LinkageError e) {
      return false;
    }
  }

  /** The agent jar to attach; see the class comment for the order. */
  static Path locate(Path explicitJar) throws AgentUnavailableException {
    List<String> tried = new ArrayList<>();
    if (explicitJar != null) {
      if (Files.isRegularFile(explicitJar)) {
        return explicitJar;
      }
      throw new AgentUnavailableException("--agent-jar " + explicitJar + ": no such file", null);
    }
    String property = System.getProperty(JAR_PROPERTY);
    if (property != null && !property.isBlank()) {
      Path p = Path.of(property);
      if (Files.isRegularFile(p)) {
        return p;
      }
      tried.add("-D" + JAR_PROPERTY + "=" + property + " (no such file)");
    }
    Path packaged = extractPackaged();
    if (packaged != null) {
      return packaged;
    }
    tried.add("resource " + RESOURCE + " in the sample jar (not packaged)");
    List<Path> candidates = new ArrayList<>();
    candidates.add(Path.of(BUILT).toAbsolutePath());
    Path codeDir = codeLocation();
    if (codeDir != null) {
      // samples/bank-oltp/target/{classes,bank-oltp.jar} -> the repository root is three levels up.
      for (Path p = codeDir; p != null; p = p.getParent()) {
        candidates.add(p.resolve(BUILT));
      }
    }
    for (Path c : candidates) {
      if (Files.isRegularFile(c)) {
        return c;
      }
    }
    tried.add(BUILT + " under the working directory and the sample's parent directories");
    throw new AgentUnavailableException(
        "wire-advisor agent jar not found; build it (mvn -pl agent -am package) or pass --agent-jar. Tried: "
            + String.join("; ", tried),
        null);
  }

  private static Path extractPackaged() throws AgentUnavailableException {
    try (InputStream in = AgentProfiles.class.getClassLoader().getResourceAsStream(RESOURCE)) {
      if (in == null) {
        return null;
      }
      Path tmp = Files.createTempFile("wire-advisor-agent-", ".jar");
      tmp.toFile().deleteOnExit();
      Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
      return tmp;
    } catch (IOException e) {
      throw new AgentUnavailableException("cannot extract the packaged agent jar: " + e, e);
    }
  }

  private static Path codeLocation() {
    try {
      var src = AgentProfiles.class.getProtectionDomain().getCodeSource();
      return src == null ? null : Path.of(src.getLocation().toURI()).toAbsolutePath().getParent();
    } catch (URISyntaxException | SecurityException | IllegalArgumentException e) {
      return null;
    }
  }

  @Override
  public String describe() {
    return description;
  }

  @Override
  public void reset() throws AgentUnavailableException {
    call(reset);
  }

  @Override
  public TrafficProfile profile() throws Exception {
    String json = (String) call(profileJson);
    if (json == null) {
      throw new AgentUnavailableException(API + ".profileJson() returned null", null);
    }
    return ProfileJson.fromJson(json);
  }

  private static Object call(Method m) throws AgentUnavailableException {
    try {
      return m.invoke(null);
    } catch (InvocationTargetException e) {
      throw new AgentUnavailableException(API + "." + m.getName() + "() failed: " + e.getCause(), e.getCause());
    } catch (IllegalAccessException e) {
      throw new AgentUnavailableException(API + "." + m.getName() + "() not accessible: " + e, e);
    }
  }

  /** The agent cannot be found, attached or called. */
  public static final class AgentUnavailableException extends Exception {
    private static final long serialVersionUID = 1L;

    AgentUnavailableException(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
