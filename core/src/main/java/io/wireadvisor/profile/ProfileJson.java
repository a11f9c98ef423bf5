package io.wireadvisor.profile;

import io.wireadvisor.files.SafeFiles;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Reader;
import java.io.StringReader;
import java.io.UnsupportedEncodingException;
import java.nio.file.Path;

/**
 * Reads and writes {@link TrafficProfile} JSON (schema in {@code docs/profile.md}): the writer is
 * {@link ProfileJsonWriter}, the strict, bounded reader {@link ProfileJsonReader}.
 *
 * <p>Writing then reading gives back an equal profile. Reading is strict: a wrong type, a negative
 * count, an unknown enum name or an unknown field fails with a {@link ProfileFormatException}
 * naming the field, so a hand-edited or truncated file is never half-read.
 */
public final class ProfileJson {
  private ProfileJson() {}

  /** The profile as pretty-printed JSON text. */
  public static String toJson(TrafficProfile profile) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      write(profile, out);
      return out.toString("UTF-8");
    } catch (UnsupportedEncodingException e) {
      throw new IllegalStateException(e);
    } catch (IOException e) {
      throw new IllegalStateException("writing to memory failed", e);
    }
  }

  /** Writes the profile as UTF-8 JSON; does not close {@code out}. */
  public static void write(TrafficProfile profile, OutputStream out) throws IOException {
    ProfileJsonWriter.write(profile, out);
  }

  /**
   * Writes the profile to {@code file} atomically (a fresh 0600 file, then rename; never through
   * a link: {@link SafeFiles}), so a reader or a crash mid-write never sees a truncated profile,
   * and other users never read its statement texts.
   */
  public static void writeFile(TrafficProfile profile, Path file) throws IOException {
    SafeFiles.write(file, out -> write(profile, out));
  }

  /** Reads a profile from JSON text, within the default {@link ProfileLimits}. */
  public static TrafficProfile fromJson(String json) throws ProfileFormatException {
    return read(new StringReader(json));
  }

  /** Reads a profile from JSON characters within the default limits. */
  public static TrafficProfile read(Reader in) throws ProfileFormatException {
    return ProfileJsonReader.read(in, ProfileLimits.defaults());
  }

  /** Reads a profile from UTF-8 JSON within the default limits. */
  public static TrafficProfile read(InputStream in) throws ProfileFormatException, IOException {
    return read(in, ProfileLimits.defaults());
  }

  /**
   * Reads a profile from UTF-8 JSON, streaming: each limit is checked before what it limits is
   * kept, so memory stays bounded by the limits whatever the input holds.
   */
  public static TrafficProfile read(InputStream in, ProfileLimits limits)
      throws ProfileFormatException, IOException {
    return ProfileJsonReader.read(in, limits);
  }

  /** Reads a profile from a file within the default limits; the error names the field. */
  public static TrafficProfile readFile(Path file) throws ProfileFormatException, IOException {
    return readFile(file, ProfileLimits.defaults());
  }

  /**
   * Reads a profile from a file; a file larger than {@code limits.maxBytes()} is refused before it
   * is read. The error names the field.
   */
  public static TrafficProfile readFile(Path file, ProfileLimits limits)
      throws ProfileFormatException, IOException {
    return ProfileJsonReader.readFile(file, limits);
  }
}
