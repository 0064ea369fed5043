-- End-to-end test of marking words from Neovim 0.11+ with nothing but the code action API, as
-- the README's suggested keys do: vim.lsp.buf.code_action({ filter = …, apply = true }).
--
--   HIGHLIGHT_LS=/path/to/highlight-ls nvim --headless -i NONE \
--     -u editors/neovim/test/minimal_init.lua -c 'luafile editors/neovim/test/marks_test.lua'
--
-- Checks: the word under the cursor is marked and vim.lsp.semantic_tokens draws it as
-- @lsp.type.mark1 wherever it stands as a whole word; a second word gets mark2; a visual
-- selection is marked literally; "Remove highlight" takes a mark away; the decorations draw
-- marks in colours of their own; a buffer opened later shows the marks. Exits 0 when every
-- check passes.

local api = vim.api
local T = dofile("editors/neovim/test/support.lua")
local say, check, all_clients, write_file = T.say, T.check, T.all_clients, T.write_file
local timeout_ms = tonumber(os.getenv("HIGHLIGHT_LS_TEST_TIMEOUT_MS") or "") or 15000

local function finish()
  T.finish("neovim marks", false)
end

if vim.fn.has("nvim-0.11") ~= 1 then
  check(false, "this test needs Neovim 0.11 or later")
  finish()
  return
end

local function main()
  local plugin = require("highlight-ls")
  -- minimal_init.lua enabled the server as it is; setup() enables it again with semantic tokens.
  vim.lsp.enable("highlight-ls", false)
  plugin.setup({ semantic_tokens = true })

  local workspace = vim.fn.resolve(vim.fn.tempname())
  vim.fn.mkdir(workspace, "p")
  write_file(workspace .. "/.highlights.json", "{}\n")
  write_file(workspace .. "/notes.txt", "alpha beta alphabet\nbeta alpha a.b(c) aXb(c)\n")
  write_file(workspace .. "/later.txt", "beta then alpha\n")

  -- A buffer of its own (:edit would reuse the empty startup buffer, with any client it has).
  vim.cmd("badd " .. vim.fn.fnameescape(workspace .. "/notes.txt"))
  vim.cmd("buffer " .. vim.fn.fnameescape(workspace .. "/notes.txt"))
  local notes = api.nvim_get_current_buf()
  local attached = vim.wait(timeout_ms, function()
    local clients = vim.lsp.get_clients({ bufnr = notes, name = "highlight-ls" })
    return #clients == 1 and clients[1].config.root_dir == workspace
  end, 20)
  check(attached, "one highlight-ls client, rooted in the workspace, attaches to notes.txt")

  -- The semantic-token extmarks of a buffer as "line:start-end:@lsp.type.<type>", sorted.
  local function token_marks(bufnr)
    vim.cmd("redraw!")
    local list = {}
    for _, mark in ipairs(api.nvim_buf_get_extmarks(bufnr, -1, 0, -1, { details = true })) do
      local group = (mark[4] or {}).hl_group or ""
      local type = group:match("^(@lsp%.type%.[%w_-]+)")
      if type then
        list[#list + 1] = string.format("%d:%d-%d:%s", mark[2], mark[3], mark[4].end_col or -1, type)
      end
    end
    table.sort(list)
    return table.concat(list, " ")
  end

  local function wait_for(what, expected, actual)
    local arrived = vim.wait(timeout_ms, function()
      return actual() == expected
    end, 20)
    check(arrived, string.format("%s\n  expected %s\n  got      %s", what, expected, actual()))
  end

  -- Applies the one code action whose title is `title`, as a key mapping would.
  local function apply(title)
    local offered = {}
    vim.lsp.buf.code_action({
      filter = function(action)
        offered[#offered + 1] = action.title
        return action.title == title
      end,
      apply = true,
    })
    local ran = vim.wait(timeout_ms, function()
      return vim.tbl_contains(offered, title)
    end, 20)
    check(ran, string.format("the action %q is offered (offered: %s)", title, table.concat(offered, " | ")))
  end

  -- The cursor in "alpha" (line 1, column 2): whole word, so not inside "alphabet".
  api.nvim_win_set_cursor(0, { 1, 2 })
  apply("Highlight «alpha»")
  wait_for("alpha marked", "0:0-5:@lsp.type.mark1 1:5-10:@lsp.type.mark1", function()
    return token_marks(notes)
  end)

  api.nvim_win_set_cursor(0, { 2, 0 })
  apply("Highlight «beta»")
  local both = "0:0-5:@lsp.type.mark1 0:6-10:@lsp.type.mark2 1:0-4:@lsp.type.mark2 1:5-10:@lsp.type.mark1"
  wait_for("beta marked in a second type", both, function()
    return token_marks(notes)
  end)

  -- A visual selection of "a.b(c)": marked literally, so "aXb(c)" stays plain.
  api.nvim_win_set_cursor(0, { 2, 11 })
  vim.cmd("normal! v5l")
  apply("Highlight «a.b(c)»")
  vim.cmd("normal! \27")
  local with_selection = vim.split(both, " ")
  with_selection[#with_selection + 1] = "1:11-17:@lsp.type.mark3"
  table.sort(with_selection)
  wait_for("a.b(c) marked literally", table.concat(with_selection, " "), function()
    return token_marks(notes)
  end)

  -- The decorations draw each mark in a colour of its own.
  local function decoration_groups()
    local groups = {}
    for _, mark in ipairs(api.nvim_buf_get_extmarks(notes, plugin.namespace, 0, -1, { details = true })) do
      local group = (mark[4] or {}).hl_group
      if group and not vim.tbl_contains(groups, group) then
        groups[#groups + 1] = group
      end
    end
    table.sort(groups)
    return table.concat(groups, " ")
  end
  wait_for("three marks, three decoration groups", "HighlightLsMark1 HighlightLsMark2 HighlightLsMark3", decoration_groups)

  -- A buffer opened later shows the marks.
  vim.cmd("edit " .. vim.fn.fnameescape(workspace .. "/later.txt"))
  local later = api.nvim_get_current_buf()
  wait_for("later.txt shows the marks", "0:0-4:@lsp.type.mark2 0:10-15:@lsp.type.mark1", function()
    return token_marks(later)
  end)

  -- Removing a mark.
  vim.cmd("buffer " .. notes)
  api.nvim_win_set_cursor(0, { 1, 1 })
  apply("Remove highlight «alpha»")
  wait_for("alpha no longer marked", "0:6-10:@lsp.type.mark2 1:0-4:@lsp.type.mark2 1:11-17:@lsp.type.mark3", function()
    return token_marks(notes)
  end)

  finish()
end

if vim.v.vim_did_enter == 1 then
  main()
else
  api.nvim_create_autocmd("VimEnter", {
    once = true,
    callback = function()
      vim.schedule(main)
    end,
  })
end
