use super::*;

#[test]
fn decoding_stops_at_the_cap_and_reads_skippable_frames_past() {
    let frame = compress_frame(&vec![b'x'; 8 << 20]);
    let mut data = vec![0x50, 0x2a, 0x4d, 0x18, 3, 0, 0, 0, 1, 2, 3];
    assert!(starts_with_frame(&data) && starts_with_frame(&frame) && !starts_with_frame(b"{\"type\""));
    data.extend(&frame);
    data.extend(&frame);
    assert_eq!(decompress_frames(&data, 16 << 20).map(|v| v.len()), Ok(16 << 20));
    let err = decompress_frames(&data, (16 << 20) - 1).unwrap_err();
    assert_eq!(err, format!("over {} bytes once decompressed", (16 << 20) - 1));
    assert!(decompress_frames(&data, 1 << 20).unwrap_err().starts_with("over "));
}

#[test]
fn truncated_and_damaged_frames_are_named_by_their_offset() {
    let frame = compress_frame(b"a line of a session log\n");
    let mut data = frame.clone();
    data.extend(&frame[..frame.len() - 2]);
    assert_eq!(decompress_frames(&data, 1 << 20), Err(incomplete(frame.len())));
    let mut damaged = frame.clone();
    let last = damaged.len() - 1;
    damaged[last] ^= 0xff;
    assert!(decompress_frames(&damaged, 1 << 20).unwrap_err().starts_with("corrupt zstd frame at byte 0: "));
    assert_eq!(decompress_frames(&[0x50, 0x2a, 0x4d, 0x18, 9, 0, 0, 0], 1 << 20), Err(incomplete(0)));
}
