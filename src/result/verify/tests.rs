use super::*;

#[test]
fn class_names_round_trip_through_json_and_text() {
    for c in FindingClass::ALL {
        let json = serde_json::to_string(&c).unwrap();
        assert_eq!(json, format!("\"{}\"", c.as_str()));
        assert_eq!(serde_json::from_str::<FindingClass>(&json).unwrap(), c);
        assert_eq!(FindingClass::parse(c.as_str()), Some(c));
    }
    assert_eq!(FindingClass::parse("lost"), None);
}
