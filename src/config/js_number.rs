//! Numbers printed as JavaScript prints them (`String(n)`, `${n}`), so the
//! config's messages read exactly as upstream's, which interpolate numbers.

/// `n` as ECMAScript's `Number::toString(n)` spells it: the shortest digits
/// that read back as `n`, positional from 1e-7 up to 1e21 and exponential
/// (`1e+21`, `1.5e-7`) outside; `-0` is `0`.
pub fn js_number(n: f64) -> String {
    if n.is_nan() {
        return "NaN".to_owned();
    }
    if n == 0.0 {
        return "0".to_owned();
    }
    if n.is_infinite() {
        return if n > 0.0 { "Infinity" } else { "-Infinity" }.to_owned();
    }
    if n < 0.0 {
        return format!("-{}", js_number(-n));
    }
    // Rust's `{:e}` prints the shortest round-trip digits, as ECMAScript
    // asks: `d[.ddd]e[-]x`. Its digits are `s` (k of them) and the value is
    // s × 10^(n - k) with n = x + 1, in the specification's terms.
    let sci = format!("{n:e}");
    let (mantissa, exponent) = sci.split_once('e').expect("`{:e}` always writes an exponent");
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let k = digits.len() as i64;
    let n = exponent.parse::<i64>().expect("an integer exponent") + 1;
    if k <= n && n <= 21 {
        format!("{digits}{}", "0".repeat((n - k) as usize))
    } else if 0 < n && n <= 21 {
        let (int, frac) = digits.split_at(n as usize);
        format!("{int}.{frac}")
    } else if -6 < n && n <= 0 {
        format!("0.{}{digits}", "0".repeat((-n) as usize))
    } else {
        let sign = if n - 1 < 0 { '-' } else { '+' };
        let (first, rest) = digits.split_at(1);
        let rest = if rest.is_empty() { String::new() } else { format!(".{rest}") };
        format!("{first}{rest}e{sign}{}", (n - 1).abs())
    }
}

#[cfg(test)]
mod tests;
