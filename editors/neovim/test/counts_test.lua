-- Headless end-to-end test of the status line counts: counts() and counts_text() before and after
-- an edit that adds a marker, without saving, then after the buffer is written, and with
-- `counts = false`, against a real highlight-ls.
--
--   HIGHLIGHT_LS=/path/to/highlight-ls nvim --headless -u NONE -i NONE \
--     --cmd 'set rtp^=editors/neovim' -c 'luafile editors/neovim/test/counts_test.lua'
--
-- Exits 0 when every check passes, 1 otherwise.

local api = vim.api
local T = dofile("editors/neovim/test/support.lua")
local check, write_file = T.check, T.write_file
local timeout_ms = tonumber(os.getenv("HIGHLIGHT_LS_TEST_TIMEOUT_MS") or "") or 15000

local function finish()
  T.finish("neovim counts", true)
end

local binary = T.server_binary()
if not binary then
  finish()
  return
end

-- Two files: the open one has two TODOs, the other (never opened) a FIXME and a TODO.
local workspace = T.workspace('{ "rules": [] }\n')
local path = workspace .. "/a.txt"
write_file(path, "TODO one\nplain\nTODO two\n")
write_file(workspace .. "/b.txt", "FIXME three\nTODO four\n")

local plugin = require("highlight-ls")
vim.cmd("runtime plugin/highlight-ls.lua")
plugin.setup({ cmd = { binary }, counts = { debounce_ms = 100 } })
vim.cmd("cd " .. vim.fn.fnameescape(workspace))

check(next(plugin.counts()) == nil, "counts() is empty before the server answers")
check(plugin.counts_text() == "", "counts_text() is empty before the server answers")

-- The status line shows the text; the User autocommand says when it changed.
local redraws = 0
api.nvim_create_autocmd("User", {
  pattern = "HighlightLsCounts",
  callback = function()
    redraws = redraws + 1
  end,
})
vim.o.laststatus = 2
vim.o.statusline = "%{luaeval('require(\"highlight-ls\").counts_text()')}"

vim.cmd("edit " .. vim.fn.fnameescape(path))
local bufnr = api.nvim_get_current_buf()

local function wait_for(what, predicate)
  local ok = vim.wait(timeout_ms, predicate, 20)
  return check(ok, what .. ": got " .. vim.inspect(plugin.counts()) .. " / " .. vim.inspect(plugin.counts_text()))
end

-- When the server attaches: counted from disk.
wait_for("the counts arrive when the server attaches", function()
  local counts = plugin.counts()
  return counts.todo == 3 and counts.fixme == 1
end)
check(plugin.counts_text() == "3 TODO | 1 FIXME", "counts_text(): " .. plugin.counts_text())
check(plugin.counts_text({ separator = " " }) == "3 TODO 1 FIXME", "a separator of one's own")
check(plugin.counts_text({ format = function(rule, count) return rule .. "=" .. count end }) == "todo=3 | fixme=1",
  "a format of one's own")
check(redraws >= 1, "the User HighlightLsCounts autocommand fired")
-- counts() hands out a copy: a status line that changes it does not change the cache.
plugin.counts().todo = 99
check(plugin.counts().todo == 3, "counts() returns a copy")

-- An edit that adds a marker, not saved: the counts go up after the debounce.
api.nvim_buf_set_lines(bufnr, 1, 2, false, { "FIXME five", "HACK six" })
wait_for("the counts follow an unsaved edit", function()
  local counts = plugin.counts()
  return counts.todo == 3 and counts.fixme == 2 and counts.hack == 1
end)
check(plugin.counts_text() == "3 TODO | 2 FIXME | 1 HACK", "counts_text() after the edit: " .. plugin.counts_text())

-- Another edit, then a write: the markers removed are gone from the counts.
api.nvim_buf_set_lines(bufnr, 0, -1, false, { "plain only" })
vim.cmd("silent write")
wait_for("the counts follow the edit and the write", function()
  local counts = plugin.counts()
  return counts.todo == 1 and counts.fixme == 1 and counts.hack == nil
end)
check(plugin.counts_text() == "1 FIXME | 1 TODO", "ties by name: " .. plugin.counts_text())

-- `counts = false` stands for `{ enabled = false }` over the defaults: the separator stays, and a
-- buffer the server attaches to asks for no counts. (A refresh the first buffer's timer still has
-- pending asks for that buffer, not this one.)
local asked_for = {}
local refresh_counts = plugin.refresh_counts
plugin.refresh_counts = function(for_buffer)
  asked_for[#asked_for + 1] = for_buffer
  return refresh_counts(for_buffer)
end
plugin.setup({ cmd = { binary }, counts = false })
check(vim.deep_equal(plugin.options.counts, { enabled = false, debounce_ms = 500, separator = " | " }),
  "counts = false keeps the other defaults: " .. vim.inspect(plugin.options.counts))
check(plugin.counts_text() == "1 FIXME | 1 TODO", "counts = false, the default separator: " .. plugin.counts_text())
write_file(workspace .. "/c.txt", "TODO seven\n")
vim.cmd("edit " .. vim.fn.fnameescape(workspace .. "/c.txt"))
local other = api.nvim_get_current_buf()
-- A client marks a buffer attached after its on_attach, which is where the counts are asked for.
check(vim.wait(timeout_ms, function()
  for _, client in ipairs(plugin.clients(other)) do
    if client.attached_buffers[other] then
      return true
    end
  end
  return false
end, 20), "counts = false: the server attaches to another buffer")
check(not vim.tbl_contains(asked_for, other), "counts = false: no counts asked for when the server attaches")

finish()
