use super::*;

fn words(s: &str) -> Vec<String> {
    s.split(' ').map(String::from).collect()
}

#[test]
fn a_hand_read_list_gives_up_the_shared_options_as_clap_defines_them() {
    let args = words("-b4k --out r.json -q --label=-x --tag a=b --keep -t2 --format json x.dat");
    let (own, rest) = split(&args, |_, _| Ok(false)).unwrap();
    assert_eq!(rest, words("-b4k -t2 x.dat"), "the rest in order");
    assert_eq!((own.format.text.as_str(), own.out.as_deref()), ("json", Some(Path::new("r.json"))));
    assert!(own.quiet && own.keep && !own.allow_write);
    assert_eq!(own.store.label.as_deref(), Some("-x"), "a value that starts with '-' stays a value");
    assert_eq!(own.store.tags, [("a".to_string(), "b".to_string())]);
    // Defaults come from the same definition.
    let (own, _) = split(&[], |_, _| Ok(false)).unwrap();
    assert_eq!((own.format.text.as_str(), own.format.value), ("text", crate::report::Format::Text));
}

#[test]
fn the_front_end_takes_its_own_first_and_conflicts_are_refused_as_clap_refuses_them() {
    let mut seen = Vec::new();
    let (own, rest) = split(&words("--format x --out o"), |n, v| {
        Ok(n == "--format" && {
            seen.push(v()?);
            true
        })
    })
    .unwrap();
    assert_eq!((seen, own.format.text.as_str(), rest.len()), (vec!["x".to_string()], "text", 0));
    let e = split(&words("--store s.db --no-store"), |_, _| Ok(false)).unwrap_err();
    assert!(e.to_string().contains("'--store <PATH>' cannot be used with '--no-store'"), "{e}");
    assert_eq!(split(&words("--out"), |_, _| Ok(false)).unwrap_err().to_string(), "--out: needs a value");
}

#[test]
fn the_list_of_shared_options_is_read_from_their_definition() {
    assert_eq!(
        shared_names(),
        "--format, --out, --allow-write, --force-device, --keep, --quiet, --label, --tag, --store or --no-store"
    );
}
