//! A JS dsh `Session` as the core's logs: [`JsSession`] reads it for
//! retrieval ([`RetrieveLog`]); [`JsPruneLog`] adds the plugin's host hooks
//! and appends replacements ([`PruneLog`]).
//!
//! The host object carries what the plugin owns: `estimateMessage(message)`
//! (the token meter's price) and `freezeMessage(message)` (dsh-llm's detach
//! and deep freeze).

use napi::bindgen_prelude::{FnArgs, JsObjectValue, Object, Unknown};
use napi::{Env, JsValue, Result};

use super::types::CallId;
use super::{
    COMPACTION_PRUNE, PruneEventData, ReplacementOptions, TOOL_RESULT, as_seq, has_type, replaced_source, shadowed_one,
    tool_result_texts,
};
use crate::binding::blocks::JsBlocks;
use crate::binding::values::{array_len, array_of, as_object, call_method, get, object, spread_with, type_error};
use crate::content::{Block, Pruned};
use crate::session::{BlockList, EventKind, PruneLog, RetrieveLog, Seq};

/// A dsh `Session`, read for one native call; `what` names the call in errors.
pub struct JsSession<'env> {
    pub(in crate::binding) env: &'env Env,
    session: Object<'env>,
    what: &'static str,
    /// `session.events`, read once.
    events: Option<(Object<'env>, u32)>,
}

impl<'env> JsSession<'env> {
    /// The session `session`; a `TypeError` unless it is an object.
    pub fn new(env: &'env Env, session: &Unknown<'env>, what: &'static str) -> Result<Self> {
        let Some(session) = as_object(session)? else {
            return Err(type_error(env, &format!("{what}: session must be a Session object")));
        };
        Ok(JsSession { env, session, what, events: None })
    }

    /// `session.events` and its length, read once.
    pub(in crate::binding) fn events(&mut self) -> Result<(Object<'env>, u32)> {
        if let Some(events) = self.events {
            return Ok(events);
        }
        let what = format!("{}: session.events", self.what);
        let events = array_len(self.env, &get(&self.session, c"events")?, &what)?;
        Ok(*self.events.insert(events))
    }

    /// The event at `seq`, if the log has one.
    pub(in crate::binding) fn event(&mut self, seq: Seq) -> Result<Option<Unknown<'env>>> {
        let (events, len) = self.events()?;
        Ok(if seq < u64::from(len) { Some(events.get_element(seq as u32)?) } else { None })
    }

    /// The surface node seqs; a `TypeError` naming the field for anything else.
    fn surface_nodes(&mut self) -> Result<Vec<Seq>> {
        let (env, what) = (self.env, self.what);
        let surface = object(env, &get(&self.session, c"surface")?, &format!("{what}: session.surface"))?;
        let (nodes, len) = array_len(env, &get(&surface, c"nodes")?, &format!("{what}: session.surface.nodes"))?;
        let mut seqs = Vec::new();
        for i in 0..len {
            let seq = as_seq(&nodes.get_element(i)?)?;
            seqs.push(seq.ok_or_else(|| {
                type_error(env, &format!("{what}: session.surface.nodes[{i}] must be an event sequence number"))
            })?);
        }
        Ok(seqs)
    }
}

impl RetrieveLog for JsSession<'_> {
    type Error = napi::Error;

    fn surface(&mut self) -> Result<Vec<Seq>> {
        self.surface_nodes()
    }

    fn event_count(&mut self) -> Result<Seq> {
        Ok(u64::from(self.events()?.1))
    }

    fn kind(&mut self, seq: Seq) -> Result<EventKind> {
        let Some(event) = self.event(seq)? else { return Ok(EventKind::Other) };
        if has_type(&event, COMPACTION_PRUNE)? {
            let event = as_object(&event)?.expect("typed events are objects");
            return Ok(shadowed_one(&event)?.map_or(EventKind::Other, |shadowed| EventKind::Prune { shadowed }));
        }
        if !has_type(&event, TOOL_RESULT)? {
            return Ok(EventKind::Other);
        }
        let event = as_object(&event)?.expect("typed events are objects");
        Ok(EventKind::ToolResult { replaces: replaced_source(&event)? })
    }

    fn texts(&mut self, seq: Seq) -> Result<Option<Vec<Vec<u16>>>> {
        match self.event(seq)? {
            Some(event) => tool_result_texts(&event),
            None => Ok(None),
        }
    }
}

/// A dsh `Session` and the plugin's host hooks, for one `pruneSession` call.
pub struct JsPruneLog<'env> {
    pub(in crate::binding) log: JsSession<'env>,
    pub(in crate::binding) host: Object<'env>,
    /// The call id of each replaced result, in the order replaced.
    pub call_ids: Vec<CallId<'env>>,
    /// Call id → `tool/call` event seq, read once when a call is looked up
    /// by id (see `binding::policy`).
    pub(in crate::binding) calls_by_id: Option<std::collections::HashMap<Vec<u16>, u32>>,
    /// The task read so far (see `binding::policy`): the next event to
    /// read, and the newest user message and model's message before it.
    pub(in crate::binding) asked: (Seq, Option<Seq>, Option<Seq>),
}

/// The pieces of a `tool/result` event that its replacement rebuilds.
pub struct JsContent<'env> {
    data: Object<'env>,
    pub(in crate::binding) message: Object<'env>,
    pub(in crate::binding) result: Object<'env>,
    pub(in crate::binding) blocks: JsBlocks<'env>,
}

impl BlockList for JsContent<'_> {
    fn blocks(&self) -> Vec<Block<'_>> {
        self.blocks.core()
    }
}

impl<'env> JsPruneLog<'env> {
    /// The log of `session`, priced and frozen through `host`.
    pub fn new(env: &'env Env, session: &Unknown<'env>, host: Object<'env>) -> Result<Self> {
        Ok(JsPruneLog {
            log: JsSession::new(env, session, "pruneSession")?,
            host,
            call_ids: Vec::new(),
            calls_by_id: None,
            asked: (0, None, None),
        })
    }

    /// `data` and `data.message` of the tool result at `seq`, checked.
    fn message_of(&mut self, seq: Seq) -> Result<(Object<'env>, Object<'env>)> {
        let env = self.log.env;
        let path = format!("pruneSession: session.events[{seq}]");
        let event = self.log.event(seq)?.expect("a surface tool result");
        let event = object(env, &event, &path)?;
        let data = object(env, &get(&event, c"data")?, &format!("{path}.data"))?;
        let message = object(env, &get(&data, c"message")?, &format!("{path}.data.message"))?;
        Ok((data, message))
    }
}

impl<'env> PruneLog for JsPruneLog<'env> {
    type Content = JsContent<'env>;
    type Error = napi::Error;

    fn surface(&mut self) -> Result<Vec<Seq>> {
        self.log.surface_nodes()
    }

    fn is_tool_result(&mut self, seq: Seq) -> Result<bool> {
        match self.log.event(seq)? {
            Some(event) => has_type(&event, TOOL_RESULT),
            None => Ok(false),
        }
    }

    fn content(&mut self, seq: Seq) -> Result<Option<JsContent<'env>>> {
        let env = self.log.env;
        let (data, message) = self.message_of(seq)?;
        let path = format!("pruneSession: session.events[{seq}].data.message.content");
        let (content, _) = array_len(env, &get(&message, c"content")?, &path)?;
        let result = object(env, &content.get_element(0)?, &format!("{path}[0]"))?;
        let blocks = JsBlocks::read_texts_or_none(env, &get(&result, c"content")?, &format!("{path}[0].content"))?;
        Ok(blocks.map(|blocks| JsContent { data, message, result, blocks }))
    }

    fn replace(&mut self, seq: Seq, content: &JsContent<'env>, pruned: &Pruned) -> Result<Seq> {
        let (env, session, host) = (self.log.env, self.log.session, self.host);
        // The replacement: { ...data, message: freeze({ ...message, content: [{ ...result, content }] }) }.
        let blocks = array_of(env, content.blocks.build(env, pruned)?)?;
        let result = spread_with(env, &content.result, "content", blocks.to_unknown())?;
        let message =
            spread_with(env, &content.message, "content", array_of(env, vec![result.to_unknown()])?.to_unknown())?;
        let frozen = call_method(env, &host, c"freezeMessage", "host.freezeMessage", message.to_unknown())?;
        let replacement = spread_with(env, &content.data, "message", frozen)?;
        let price = call_method(env, &host, c"estimateMessage", "host.estimateMessage", content.message.to_unknown())?;

        let shadow = PruneEventData::new(seq, price);
        call_method(env, &session, c"append", "session.append", FnArgs::from((COMPACTION_PRUNE, shadow)))?;
        let options = ReplacementOptions::new(seq);
        let args = FnArgs::from((TOOL_RESULT, replacement, options));
        let appended = call_method(env, &session, c"append", "session.append", args)?;
        let new_seq = match as_object(&appended)? {
            Some(event) => as_seq(&get(&event, c"seq")?)?,
            None => None,
        };
        let new_seq = new_seq.ok_or_else(|| {
            type_error(env, "pruneSession: session.append must return the appended event with its seq")
        })?;

        let path = format!("pruneSession: session.events[{seq}].data.message.source");
        let source = object(env, &get(&content.message, c"source")?, &path)?;
        self.call_ids.push(CallId(get(&source, c"callId")?));
        Ok(new_seq)
    }
}
