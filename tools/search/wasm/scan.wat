;; Two-byte SIMD candidate scan for the literal prefilter of llm-search.
;; Build: `deno task wasm` (needs wat2wasm from Debian's wabt), which regenerates scan_wasm.ts.
(module
  (memory (export "memory") 17)
  ;; scan(start, end, b1, b2, dist, ci1, ci2) -> the first i in [start, end) where
  ;; (mem[i] | ci1) == b1 and (mem[i + dist] | ci2) == b2, or -1. `ci` is 0x20 to fold
  ;; ASCII case (the needle byte is then lower-case), else 0. The caller guarantees that
  ;; end + dist <= the length of the bytes in memory.
  (func (export "scan")
    (param $start i32) (param $end i32) (param $b1 i32) (param $b2 i32)
    (param $dist i32) (param $ci1 i32) (param $ci2 i32) (result i32)
    (local $i i32) (local $mask i32)
    (local $n1 v128) (local $n2 v128) (local $c1 v128) (local $c2 v128)
    (local.set $n1 (i8x16.splat (local.get $b1)))
    (local.set $n2 (i8x16.splat (local.get $b2)))
    (local.set $c1 (i8x16.splat (local.get $ci1)))
    (local.set $c2 (i8x16.splat (local.get $ci2)))
    (local.set $i (local.get $start))
    (block $vector_done
      (loop $vector
        (br_if $vector_done (i32.gt_u (i32.add (local.get $i) (i32.const 32)) (local.get $end)))
        (local.set $mask
          (i32.or
            (i8x16.bitmask
              (v128.and
                (i8x16.eq (v128.or (v128.load (local.get $i)) (local.get $c1)) (local.get $n1))
                (i8x16.eq
                  (v128.or (v128.load (i32.add (local.get $i) (local.get $dist))) (local.get $c2))
                  (local.get $n2))))
            (i32.shl
              (i8x16.bitmask
                (v128.and
                  (i8x16.eq
                    (v128.or (v128.load offset=16 (local.get $i)) (local.get $c1))
                    (local.get $n1))
                  (i8x16.eq
                    (v128.or
                      (v128.load offset=16 (i32.add (local.get $i) (local.get $dist)))
                      (local.get $c2))
                    (local.get $n2))))
              (i32.const 16))))
        (if (local.get $mask)
          (then (return (i32.add (local.get $i) (i32.ctz (local.get $mask))))))
        (local.set $i (i32.add (local.get $i) (i32.const 32)))
        (br $vector)))
    (block $tail_done
      (loop $tail
        (br_if $tail_done (i32.ge_u (local.get $i) (local.get $end)))
        (if (i32.and
              (i32.eq (i32.or (i32.load8_u (local.get $i)) (local.get $ci1)) (local.get $b1))
              (i32.eq
                (i32.or (i32.load8_u (i32.add (local.get $i) (local.get $dist))) (local.get $ci2))
                (local.get $b2)))
          (then (return (local.get $i))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $tail)))
    (i32.const -1)))
