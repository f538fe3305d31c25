// Syntax errors of tuples, checked by bad-tuple.rs.
// SYNTAX: bad-tuple-syntax.rs:[[@LINE+1]]:11: error: a tuple type is not supported as the slice element type in WAVE kernels (buffers and shared arrays hold scalars: use one per element)
fn k(a: &[(f32, f32)]) {
// SYNTAX: bad-tuple-syntax.rs:[[@LINE+1]]:20: error: a tuple type is not supported as the element type of 'shared' in WAVE kernels (buffers and shared arrays hold scalars: use one per element)
    let s = shared((f32, f32), 4);
// SYNTAX: bad-tuple-syntax.rs:[[@LINE+1]]:12: error: the unit type '()' is not supported after ':' in WAVE kernels
    let u: () = 1;
// SYNTAX: bad-tuple-syntax.rs:[[@LINE+1]]:18: error: expected ',' or ')' in the tuple, found ';'
    let t = (1, 2;
    let h = match t {
        _ if n > 1 => 1,
// SYNTAX: bad-tuple-syntax.rs:[[@LINE+1]]:9: error: a tuple pattern needs a tuple value or a scrutinee such as '(a, b)' (a match takes a tuple value apart when its first arm's pattern is a tuple)
        (x, _) => x,
        _ => 0,
    };
}
