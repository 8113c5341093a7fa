/**
 * A seeded pseudo-random generator: xoshiro128** (Blackman and Vigna),
 * its state initialised from the seed by splitmix32. The same seed gives
 * the same sequence on every run and platform (32-bit integer arithmetic
 * only). Not SystemDS's generator: `rand(seed=s)` is reproducible here,
 * not equal to SystemDS's numbers for s.
 */
export class SeededRandom {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;
  private spareNormal: number | undefined;

  /** Any finite seed; it is reduced to its integer part modulo 2^64. */
  constructor(seed: number) {
    const whole = Math.trunc(seed);
    const lo = whole % 4294967296 >>> 0;
    const hi = Math.floor(whole / 4294967296) >>> 0;
    let x = lo ^ Math.imul(hi, 0x85ebca6b);
    const next = () => {
      x = (x + 0x9e3779b9) | 0;
      let t = x ^ (x >>> 16);
      t = Math.imul(t, 0x21f0aaad);
      t ^= t >>> 15;
      t = Math.imul(t, 0x735a2d97);
      return (t ^ (t >>> 15)) >>> 0;
    };
    this.s0 = next();
    this.s1 = next();
    this.s2 = next();
    this.s3 = next();
    if ((this.s0 | this.s1 | this.s2 | this.s3) === 0) this.s0 = 1;
  }

  /** A uniform 32-bit unsigned integer. */
  nextUint32(): number {
    const result = Math.imul(rotl(Math.imul(this.s1, 5), 7), 9) >>> 0;
    const t = this.s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= this.s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = rotl(this.s3, 11);
    return result;
  }

  /** A uniform double in [0, 1) with 53 random bits. */
  nextDouble(): number {
    const a = this.nextUint32() >>> 5;
    const b = this.nextUint32() >>> 6;
    return (a * 67108864 + b) / 9007199254740992;
  }

  /** A standard normal value (Marsaglia's polar method; the second value of each pair is kept for the next call). */
  nextNormal(): number {
    if (this.spareNormal !== undefined) {
      const v = this.spareNormal;
      this.spareNormal = undefined;
      return v;
    }
    let u: number, v: number, s: number;
    do {
      u = 2 * this.nextDouble() - 1;
      v = 2 * this.nextDouble() - 1;
      s = u * u + v * v;
    } while (s >= 1 || s === 0);
    const f = Math.sqrt((-2 * Math.log(s)) / s);
    this.spareNormal = v * f;
    return u * f;
  }

  /** A Poisson(lambda) count (Knuth's product of uniforms, in steps of e^-500 so that large lambdas do not underflow). */
  nextPoisson(lambda: number): number {
    const STEP = 500;
    let remaining = lambda;
    let k = 0;
    let p = 1;
    do {
      k++;
      p *= this.nextDouble();
      while (p < 1 && remaining > 0) {
        const step = Math.min(remaining, STEP);
        p *= Math.exp(step);
        remaining -= step;
      }
    } while (p > 1);
    return k - 1;
  }
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}
