package dev.stint.mpi;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.util.Base64;

/**
 * An ECDSA P-521 key pair for the SSH connections between an MPIJob's pods, in the forms the MPI Operator v2 stores
 * them: the private key as a SEC 1 {@code EC PRIVATE KEY} PEM block (Go's {@code x509.MarshalECPrivateKey}), the
 * public key as an OpenSSH {@code authorized_keys} line ({@code ecdsa-sha2-nistp521 AAAA...}). The JDK generates the
 * key; both encodings are written here by hand, because the JDK offers neither.
 *
 * @param privateKeyPem the private key, PEM encoded, ending with a newline
 * @param authorizedKey the public key as one {@code authorized_keys} line, ending with a newline
 */
record SshKeyPair(String privateKeyPem, String authorizedKey) {

  static final String CURVE = "secp521r1";
  static final String SSH_KEY_TYPE = "ecdsa-sha2-nistp521";
  static final String SSH_CURVE_NAME = "nistp521";
  /** Bytes of a P-521 field element or scalar: ceil(521 / 8). */
  static final int FIELD_BYTES = 66;
  /** DER of the secp521r1 object identifier, 1.3.132.0.35. */
  private static final byte[] SECP521R1_OID = {0x06, 0x05, 0x2B, (byte) 0x81, 0x04, 0x00, 0x23};
  private static final SecureRandom RANDOM = new SecureRandom();

  /** A new random key pair. */
  static SshKeyPair generate() {
    KeyPair pair;
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
      generator.initialize(new ECGenParameterSpec(CURVE), RANDOM);
      pair = generator.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("this JVM cannot generate " + CURVE + " keys", e);
    }
    byte[] point = uncompressedPoint((ECPublicKey) pair.getPublic());
    byte[] scalar = fixedLength(((ECPrivateKey) pair.getPrivate()).getS());
    return new SshKeyPair(pem("EC PRIVATE KEY", sec1(scalar, point)),
        SSH_KEY_TYPE + " " + Base64.getEncoder().encodeToString(sshPublicKeyBlob(point)) + "\n");
  }

  /** {@code 0x04 || X || Y}, each coordinate {@value #FIELD_BYTES} bytes (SEC 1, section 2.3.3). */
  static byte[] uncompressedPoint(ECPublicKey key) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(0x04);
    out.writeBytes(fixedLength(key.getW().getAffineX()));
    out.writeBytes(fixedLength(key.getW().getAffineY()));
    return out.toByteArray();
  }

  /**
   * The SEC 1 {@code ECPrivateKey} (RFC 5915): {@code SEQUENCE {version 1, privateKey OCTET STRING, [0] curve OID,
   * [1] publicKey BIT STRING}}, with every optional part present, as Go writes it.
   */
  private static byte[] sec1(byte[] scalar, byte[] point) {
    byte[] version = der(0x02, new byte[] {1});
    byte[] privateKey = der(0x04, scalar);
    byte[] parameters = der(0xA0, SECP521R1_OID);
    byte[] publicKey = der(0xA1, der(0x03, concat(new byte[] {0}, point))); // no unused bits
    return der(0x30, concat(version, privateKey, parameters, publicKey));
  }

  /** The SSH wire form (RFC 5656, section 3.1): strings key type, curve name and point, each length-prefixed. */
  static byte[] sshPublicKeyBlob(byte[] point) {
    return concat(sshString(SSH_KEY_TYPE.getBytes(StandardCharsets.US_ASCII)),
        sshString(SSH_CURVE_NAME.getBytes(StandardCharsets.US_ASCII)), sshString(point));
  }

  private static byte[] sshString(byte[] value) {
    int n = value.length;
    return concat(new byte[] {(byte) (n >>> 24), (byte) (n >>> 16), (byte) (n >>> 8), (byte) n}, value);
  }

  /** One DER element: tag, definite length (short or long form), content. */
  private static byte[] der(int tag, byte[] content) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(tag);
    int length = content.length;
    if (length < 0x80) {
      out.write(length);
    } else if (length <= 0xFF) {
      out.write(0x81);
      out.write(length);
    } else {
      out.write(0x82);
      out.write(length >>> 8);
      out.write(length & 0xFF);
    }
    out.writeBytes(content);
    return out.toByteArray();
  }

  /** A non-negative number as exactly {@value #FIELD_BYTES} big-endian bytes. */
  private static byte[] fixedLength(BigInteger value) {
    byte[] bytes = value.toByteArray();
    byte[] fixed = new byte[FIELD_BYTES];
    int copy = Math.min(bytes.length, FIELD_BYTES); // drops the sign byte BigInteger may prepend
    System.arraycopy(bytes, bytes.length - copy, fixed, FIELD_BYTES - copy, copy);
    return fixed;
  }

  /** PEM (RFC 7468): the Base64 body in lines of 64 characters, as Go's {@code pem.EncodeToMemory}. */
  private static String pem(String type, byte[] der) {
    String body = Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der);
    return "-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n";
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      out.writeBytes(part);
    }
    return out.toByteArray();
  }

  @Override
  public String toString() {
    return "SshKeyPair[" + authorizedKey.strip() + "]"; // never the private key, should the pair end up in a log
  }
}
