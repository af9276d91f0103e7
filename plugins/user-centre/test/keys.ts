/** A throw-away RSA-OAEP key pair for tests, with the public key as SPKI base64. */
export async function testKeyPair() {
  const pair = await crypto.subtle.generateKey(
    { name: 'RSA-OAEP', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
    true,
    ['encrypt', 'decrypt'],
  );
  const spki = new Uint8Array(await crypto.subtle.exportKey('spki', pair.publicKey));
  let bin = '';
  for (const b of spki) bin += String.fromCharCode(b);
  const decrypt = async (b64: string) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    return new TextDecoder().decode(await crypto.subtle.decrypt({ name: 'RSA-OAEP' }, pair.privateKey, bytes));
  };
  return { spki: btoa(bin), decrypt };
}
