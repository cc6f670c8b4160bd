import { createHmac, generateKeyPairSync } from "node:crypto";
import jwt from "jsonwebtoken";
import { issueUserToken, ttlSeconds } from "../auth";
import { createJwtVerifier } from "./jwt-verifier";

const SECRET = "a-test-secret-that-is-long-enough-for-hs256";
const USER = { id: "2f1d3c4b-5a69-4788-9a0b-1c2d3e4f5a6b", email: "a@example.com" };
const rsa = generateKeyPairSync("rsa", {
  modulusLength: 2048,
  publicKeyEncoding: { type: "spki", format: "pem" },
  privateKeyEncoding: { type: "pkcs8", format: "pem" },
});

const b64url = (value: object | string) =>
  Buffer.from(typeof value === "string" ? value : JSON.stringify(value)).toString("base64url");
const now = () => Math.floor(Date.now() / 1000);
/** A token put together by hand, as an attacker would. */
const forge = (header: object, payload: object, sign: (input: string) => string) => {
  const input = `${b64url(header)}.${b64url(payload)}`;
  return `${input}.${sign(input)}`;
};
const hmac = (secret: string) => (input: string) => createHmac("sha256", secret).update(input).digest("base64url");

describe("JWT verifier", () => {
  const hs = createJwtVerifier({ algorithm: "HS256", secret: SECRET, clockToleranceS: 0 });
  const rs = createJwtVerifier({ algorithm: "RS256", publicKey: rsa.publicKey, clockToleranceS: 0 });

  it("answers the claims of a good HS256 token, extra claims included", () => {
    const token = jwt.sign({ admin: true }, SECRET, { algorithm: "HS256", subject: USER.id, expiresIn: 60 });
    expect(hs(token)).toEqual(expect.objectContaining({ sub: USER.id, admin: true, exp: expect.any(Number) }));
  });

  it("answers the claims of a good RS256 token", () => {
    const token = issueUserToken({ algorithm: "RS256", privateKey: rsa.privateKey }, USER, 60);
    expect(rs(token)).toEqual(expect.objectContaining({ sub: USER.id, email: USER.email }));
  });

  it("refuses alg none", () => {
    const token = forge({ alg: "none", typ: "JWT" }, { sub: USER.id, exp: now() + 60 }, () => "");
    expect(() => hs(token)).toThrow("The token is not valid");
    expect(() => rs(token)).toThrow("The token is not valid");
  });

  it("refuses HS256 signed with the RSA public key when RS256 is configured (algorithm confusion)", () => {
    const token = forge({ alg: "HS256", typ: "JWT" }, { sub: USER.id, exp: now() + 60 }, hmac(rsa.publicKey));
    expect(() => rs(token)).toThrow("The token is not valid");
  });

  it("refuses RS256 when HS256 is configured", () => {
    const token = issueUserToken({ algorithm: "RS256", privateKey: rsa.privateKey }, USER, 60);
    expect(() => hs(token)).toThrow("The token is not valid");
  });

  it("refuses a token signed with another secret, or altered after signing", () => {
    expect(() => hs(issueUserToken({ algorithm: "HS256", secret: `${SECRET}!` }, USER, 60))).toThrow(
      "The token is not valid",
    );
    const token = issueUserToken({ algorithm: "HS256", secret: SECRET }, USER, 60);
    const [header, , signature] = token.split(".");
    const altered = `${header}.${b64url({ sub: "7d4f5a52-4d8e-4a8e-9a55-0c7f1b0e9d11", exp: now() + 60 })}.${signature}`;
    expect(() => hs(altered)).toThrow("The token is not valid");
  });

  it("refuses an expired token and one without exp", () => {
    const expired = forge({ alg: "HS256", typ: "JWT" }, { sub: USER.id, exp: now() - 10 }, hmac(SECRET));
    expect(() => hs(expired)).toThrow("The token has expired");
    const forever = forge({ alg: "HS256", typ: "JWT" }, { sub: USER.id }, hmac(SECRET));
    expect(() => hs(forever)).toThrow("The token must carry sub and exp claims");
  });

  it("refuses a token before its nbf", () => {
    const early = forge(
      { alg: "HS256", typ: "JWT" },
      { sub: USER.id, exp: now() + 600, nbf: now() + 300 },
      hmac(SECRET),
    );
    expect(() => hs(early)).toThrow("The token is not valid yet");
  });

  it("checks iss and aud when configured, and only then", () => {
    const strict = createJwtVerifier({
      algorithm: "HS256",
      secret: SECRET,
      issuer: "aeo-scan",
      audience: "aeo-scan-api",
      clockToleranceS: 0,
    });
    const right = issueUserToken(
      { algorithm: "HS256", secret: SECRET, issuer: "aeo-scan", audience: "aeo-scan-api" },
      USER,
      60,
    );
    expect(strict(right).sub).toBe(USER.id);
    expect(hs(right).sub).toBe(USER.id);
    const wrongIssuer = issueUserToken(
      { algorithm: "HS256", secret: SECRET, issuer: "someone-else", audience: "aeo-scan-api" },
      USER,
      60,
    );
    expect(() => strict(wrongIssuer)).toThrow("The token is not valid");
    const noAudience = issueUserToken({ algorithm: "HS256", secret: SECRET, issuer: "aeo-scan" }, USER, 60);
    expect(() => strict(noAudience)).toThrow("The token is not valid");
  });

  it("reads token lifetimes", () => {
    expect(ttlSeconds("90s")).toBe(90);
    expect(ttlSeconds("30m")).toBe(1800);
    expect(ttlSeconds("1h")).toBe(3600);
    expect(ttlSeconds("7d")).toBe(604_800);
    for (const bad of ["", "1", "h", "0h", "1w", "-1h", "1.5h"]) expect(ttlSeconds(bad)).toBeNull();
  });
});
