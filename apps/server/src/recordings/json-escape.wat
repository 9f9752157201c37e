;; JSON string escaping of ASCII bytes, as JSON.stringify escapes a string of them (without the
;; quotes): " and \ get a backslash; \b \t \n \f \r their short forms; other bytes below 0x20
;; \u00xx in lowercase hexadecimal; every other byte (0x20-0x7f) is copied. Sixteen bytes at a time
;; while none of them needs escaping. escape(src, len, dst) reads [src, src+len) and writes from dst
;; (which must not overlap it, and must have 16 bytes of room past the output); it answers the end
;; of what it wrote.
(module
  (import "env" "memory" (memory 1))

  ;; One byte that needs escaping, written at dst: answers the end.
  (func $one (param $c i32) (param $dst i32) (result i32)
    (local $short i32)
    ;; The two-byte forms, as a little-endian pair: a backslash, then the letter.
    (if (i32.eq (local.get $c) (i32.const 0x22)) (then (local.set $short (i32.const 0x225c))))
    (if (i32.eq (local.get $c) (i32.const 0x5c)) (then (local.set $short (i32.const 0x5c5c))))
    (if (i32.eq (local.get $c) (i32.const 0x08)) (then (local.set $short (i32.const 0x625c))))
    (if (i32.eq (local.get $c) (i32.const 0x09)) (then (local.set $short (i32.const 0x745c))))
    (if (i32.eq (local.get $c) (i32.const 0x0a)) (then (local.set $short (i32.const 0x6e5c))))
    (if (i32.eq (local.get $c) (i32.const 0x0c)) (then (local.set $short (i32.const 0x665c))))
    (if (i32.eq (local.get $c) (i32.const 0x0d)) (then (local.set $short (i32.const 0x725c))))
    (if (local.get $short)
      (then
        (i32.store16 align=1 (local.get $dst) (local.get $short))
        (return (i32.add (local.get $dst) (i32.const 2)))))
    ;; \u00 then two lowercase hexadecimal digits (the first is 0 or 1: c < 0x20).
    (i32.store align=1 (local.get $dst) (i32.const 0x3030755c))
    (i32.store8 offset=4 (local.get $dst) (i32.add (i32.const 0x30) (i32.shr_u (local.get $c) (i32.const 4))))
    (i32.store8 offset=5 (local.get $dst)
      (i32.add (i32.and (local.get $c) (i32.const 15))
        (select (i32.const 0x30) (i32.const 0x57) (i32.lt_u (i32.and (local.get $c) (i32.const 15)) (i32.const 10)))))
    (i32.add (local.get $dst) (i32.const 6)))

  (func (export "escape") (param $src i32) (param $len i32) (param $dst i32) (result i32)
    (local $end i32) (local $v v128) (local $mask i32) (local $c i32)
    (local.set $end (i32.add (local.get $src) (local.get $len)))
    (block $bytes
      (loop $vectors
        (br_if $bytes (i32.gt_u (i32.add (local.get $src) (i32.const 16)) (local.get $end)))
        (local.set $v (v128.load align=1 (local.get $src)))
        (local.set $mask
          (i8x16.bitmask
            (v128.or
              (i8x16.lt_u (local.get $v) (i8x16.splat (i32.const 0x20)))
              (v128.or
                (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x22)))
                (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x5c)))))))
        ;; All sixteen copied; where one needs escaping, only those before it, then that one.
        (v128.store align=1 (local.get $dst) (local.get $v))
        (if (i32.eqz (local.get $mask))
          (then
            (local.set $src (i32.add (local.get $src) (i32.const 16)))
            (local.set $dst (i32.add (local.get $dst) (i32.const 16)))
            (br $vectors)))
        (local.set $c (i32.ctz (local.get $mask)))
        (local.set $src (i32.add (local.get $src) (local.get $c)))
        (local.set $dst
          (call $one (i32.load8_u (local.get $src)) (i32.add (local.get $dst) (local.get $c))))
        (local.set $src (i32.add (local.get $src) (i32.const 1)))
        (br $vectors)))
    (block $done
      (loop $byte
        (br_if $done (i32.ge_u (local.get $src) (local.get $end)))
        (local.set $c (i32.load8_u (local.get $src)))
        (if (i32.or (i32.lt_u (local.get $c) (i32.const 0x20))
              (i32.or (i32.eq (local.get $c) (i32.const 0x22)) (i32.eq (local.get $c) (i32.const 0x5c))))
          (then (local.set $dst (call $one (local.get $c) (local.get $dst))))
          (else
            (i32.store8 (local.get $dst) (local.get $c))
            (local.set $dst (i32.add (local.get $dst) (i32.const 1)))))
        (local.set $src (i32.add (local.get $src) (i32.const 1)))
        (br $byte)))
    (local.get $dst)))
