/**
 * The WebAssembly kernels' linear memory: one shared WasmMemory (so
 * worker threads run on the same bytes and views survive growth), carved up
 * by a first-fit allocator with coalescing. Scratch buffers of a kernel call
 * come from here and go back after it, so repeated calls reuse the same bytes.
 * `allocateF64` hands out Float64Arrays that live in this memory ("resident"):
 * kernels use them in place, with no copy in or out.
 */

import type { WasmMemory } from "./wasm-api";

/** Bytes per WebAssembly page. */
const PAGE = 65536;
/** The memory's maximum, 4 GiB: wasm32 addresses. */
export const MAX_PAGES = 65536;
/** Every block starts on a cache line. */
const ALIGN = 64;

interface Block {
  start: number;
  size: number;
}

export class WasmHeap {
  readonly memory: WasmMemory;
  /** Free blocks, sorted by start, never adjacent (coalesced). */
  private readonly free: Block[] = [];
  /** Start → size of the blocks handed out. */
  private readonly used = new Map<number, number>();
  /** Every buffer object the memory has had: views on any of them are resident. */
  private readonly buffers = new WeakSet<ArrayBufferLike>();
  private end: number;

  constructor(memory: WasmMemory) {
    this.memory = memory;
    this.buffers.add(memory.buffer);
    this.end = memory.buffer.byteLength;
    // Page 0 stays unused, so address 0 is never a valid block.
    if (this.end > PAGE) this.free.push({ start: PAGE, size: this.end - PAGE });
    else this.end = PAGE;
  }

  /** Bytes of linear memory now (grows on demand up to 4 GiB). */
  get byteLength(): number {
    return this.memory.buffer.byteLength;
  }

  /** Bytes handed out and not yet released. */
  get bytesInUse(): number {
    let total = 0;
    for (const size of this.used.values()) total += size;
    return total;
  }

  /** Reserves `bytes` (rounded up to 64) and returns the address; throws a RangeError past 4 GiB. */
  allocate(bytes: number): number {
    const size = Math.max(ALIGN, Math.ceil(bytes / ALIGN) * ALIGN);
    let index = this.free.findIndex((b) => b.size >= size);
    if (index < 0) index = this.grow(size);
    const block = this.free[index]!;
    const start = block.start;
    if (block.size === size) this.free.splice(index, 1);
    else {
      block.start += size;
      block.size -= size;
    }
    this.used.set(start, size);
    return start;
  }

  /** Returns a block from `allocate`; unknown addresses are ignored. */
  release(address: number): void {
    const size = this.used.get(address);
    if (size === undefined) return;
    this.used.delete(address);
    let i = 0;
    while (i < this.free.length && this.free[i]!.start < address) i++;
    const prev = i > 0 ? this.free[i - 1] : undefined;
    const next = this.free[i];
    if (prev && prev.start + prev.size === address) {
      prev.size += size;
      if (next && prev.start + prev.size === next.start) {
        prev.size += next.size;
        this.free.splice(i, 1);
      }
    } else if (next && address + size === next.start) {
      next.start = address;
      next.size += size;
    } else this.free.splice(i, 0, { start: address, size });
  }

  /** A Float64Array of `length` zeros living in this memory; give it back with `releaseArray`. */
  allocateF64(length: number): Float64Array {
    const view = this.f64(this.allocate(length * 8), length);
    view.fill(0);
    return view;
  }

  /** An Int32Array of `length` zeros living in this memory; give it back with `releaseArray`. */
  allocateI32(length: number): Int32Array {
    const view = this.i32(this.allocate(length * 4), length);
    view.fill(0);
    return view;
  }

  /** Gives back the block of an array from `allocateF64` / `allocateI32`. */
  releaseArray(array: Float64Array | Int32Array): void {
    const address = this.addressOf(array);
    if (address !== undefined) this.release(address);
  }

  /** The address of a view that lives in this memory, else undefined. */
  addressOf(view: ArrayBufferView): number | undefined {
    return this.buffers.has(view.buffer) ? view.byteOffset : undefined;
  }

  /** A Float64Array over [address, address + 8·length). */
  f64(address: number, length: number): Float64Array {
    return new Float64Array(this.currentBuffer(), address, length);
  }

  /** An Int32Array over [address, address + 4·length). */
  i32(address: number, length: number): Int32Array {
    return new Int32Array(this.currentBuffer(), address, length);
  }

  private currentBuffer(): ArrayBufferLike {
    const buffer = this.memory.buffer;
    this.buffers.add(buffer);
    return buffer;
  }

  /** Grows so that a free block of `size` bytes exists at the end; returns its index. */
  private grow(size: number): number {
    const last = this.free[this.free.length - 1];
    const tail = last && last.start + last.size === this.end ? last.size : 0;
    const needPages = Math.ceil((size - tail) / PAGE);
    const currentPages = this.end / PAGE;
    if (currentPages + needPages > MAX_PAGES) {
      throw new RangeError(`the WebAssembly kernel heap cannot grow by ${size - tail} bytes past 4 GiB (in use: ${this.bytesInUse} bytes)`);
    }
    // Grow by at least a quarter of the current size, so many small steps do not each grow.
    const pages = Math.min(MAX_PAGES - currentPages, Math.max(needPages, Math.ceil(currentPages / 4)));
    this.memory.grow(pages);
    const added = pages * PAGE;
    this.currentBuffer();
    if (tail > 0) last!.size += added;
    else this.free.push({ start: this.end, size: added });
    this.end += added;
    return this.free.length - 1;
  }
}
